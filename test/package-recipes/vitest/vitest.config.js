import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { globalSetup: './bigquery-emulator.js' } });
