// Preloaded (NODE_OPTIONS=--require) into a CLI process: it reports a user id one past its own,
// so every file it wrote itself reads as another user's (the manifest cache's ownership rule).
const uid = process.getuid?.();
if (uid !== undefined) process.getuid = () => uid + 1;
