/**
 * pass@k and pass^k from n trials of which c passed, with the unbiased estimators: pass@k is the
 * chance that at least one of k trials drawn without replacement passes (Chen et al., 2021);
 * pass^k the chance that all k pass (τ-bench's reliability measure).
 */

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/**
 * At least one of k trials passes.
 *
 * @example passAtK(10, 3, 1) // 0.3
 */
export function passAtK(n: number, c: number, k: number): number {
  if (n === 0 || k < 1 || k > n) return Number.NaN;
  if (n - c < k) return 1;
  return 1 - choose(n - c, k) / choose(n, k);
}

/**
 * All k trials pass.
 *
 * @example passHatK(4, 3, 2) // 0.5
 */
export function passHatK(n: number, c: number, k: number): number {
  if (n === 0 || k < 1 || k > n) return Number.NaN;
  return choose(c, k) / choose(n, k);
}
