// Connection pools that outlive a restart of the database. pg.Pool drops a broken idle client by
// itself and reports it as the pool's 'error'; a client that is checked out when the server goes
// away reports on the client instead, and with no listener there that error would end the process.
// Every client therefore gets a listener for its whole life; the failed query still rejects for
// whoever ran it, and pg.Pool discards the client when it comes back unusable.
import type pg from 'pg';

export function survivingRestarts(pool: pg.Pool, name: string, log: (line: string) => void): pg.Pool {
  pool.on('error', (error) => log(`${name} pool: ${error.message}`));
  pool.on('connect', (client) => {
    client.on('error', (error) => log(`${name} pool client: ${error.message}`));
  });
  return pool;
}
