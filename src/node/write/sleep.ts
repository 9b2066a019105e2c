// A pause on the global timer: node:timers/promises is one more module every call would load,
// and no pause here is ever cancelled.
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
