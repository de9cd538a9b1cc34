/**
 * pass@k and pass^k from n trials of which c passed, with the unbiased estimators: pass@k is the
 * chance that at least one of k trials drawn without replacement passes (Chen et al., 2021);
 * pass^k the chance that all k pass (τ-bench's reliability measure).
 */

/**
 * C(m, k) / C(n, k) for m ≤ n: the chance that k of n drawn without replacement are all among m.
 * As a product of k ratios, each at most 1, so it stays a number where the coefficients themselves
 * pass the largest double (n in the thousands).
 */
function chooseRatio(m: number, n: number, k: number): number {
  if (k > m) return 0;
  let result = 1;
  for (let i = 0; i < k; i++) result *= (m - i) / (n - i);
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
  return 1 - chooseRatio(n - c, n, k);
}

/**
 * All k trials pass.
 *
 * @example passHatK(4, 3, 2) // 0.5
 */
export function passHatK(n: number, c: number, k: number): number {
  if (n === 0 || k < 1 || k > n) return Number.NaN;
  return chooseRatio(c, n, k);
}
