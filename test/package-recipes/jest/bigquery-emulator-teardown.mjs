export default async function globalTeardown() {
  await globalThis.bigqueryEmulator?.stop();
}
