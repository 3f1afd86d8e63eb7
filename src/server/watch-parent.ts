/**
 * Calls `onGone` once, when the process that started this one has exited (this process was
 * reparented). `npx switchyard` runs the server under npm's `sh -c`: a SIGTERM sent to npx is
 * passed on to that shell only, which dies of it without passing it on, and npm exits — the
 * server, left with no parent, would keep serving. Checks every `intervalMs`; never keeps the
 * process alive. Returns the stop.
 */
export function watchParent(onGone: () => void, intervalMs = 250): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
