/**
 * Test helper: a TCP port on 127.0.0.1 that was free a moment ago, for emulators spawned as child
 * processes (`bin/bqemu.js serve --port N`), which cannot report a port they picked themselves.
 */
import net from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}
