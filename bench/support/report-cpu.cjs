// Preloaded (`node --require`) into a bench's child: at exit, writes the process's CPU time
// (user + system, ms) to fd 3, which the machine's load inflates far less than wall time.
process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  require("node:fs").writeSync(3, `${(user + system) / 1000}\n`);
});
