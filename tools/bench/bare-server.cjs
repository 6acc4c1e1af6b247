// The throughput ceiling: a bare node:http server answering every request with the bytes
// and headers of one page, saved by tools/bench/ceiling.mjs. Whatever our entry does per
// request beyond this is its cost. Usage: node bare-server.cjs <response.json> <port>
const http = require('node:http');
const { readFileSync } = require('node:fs');

const [responseFile, port] = process.argv.slice(2);
if (!responseFile || !port) throw new Error('usage: node bare-server.cjs <response.json> <port>');
const saved = JSON.parse(readFileSync(responseFile, 'utf8'));
const body = Buffer.from(saved.body, 'base64');
const headers = { ...saved.headers, 'content-length': String(body.length) };
http
  .createServer((req, res) => {
    res.writeHead(saved.status, headers);
    res.end(body);
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
