// SPDX-License-Identifier: MIT
// Preloaded (node --import) into a server under test: every listening
// socket of the process is bound to 127.0.0.1 only (the reference servers
// listen on all interfaces; this project's tests listen on loopback only),
// and the port it got is announced on stderr as
// "toolgov-test: listening on 127.0.0.1:PORT" (so PORT=0 picks a free one).
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const cb = typeof args[args.length - 1] === "function" ? args.pop() : undefined;
  let opts = args[0];
  if (typeof opts === "number" || (typeof opts === "string" && /^\d+$/.test(opts)))
    opts = { port: Number(opts) };
  if (opts && typeof opts === "object" && !("path" in opts)) {
    opts = { ...opts, host: "127.0.0.1" };
    this.once("listening", () => {
      process.stderr.write(`toolgov-test: listening on 127.0.0.1:${this.address().port}\n`);
    });
    return cb ? listen.call(this, opts, cb) : listen.call(this, opts);
  }
  return listen.apply(this, cb ? [...args, cb] : args);
};
