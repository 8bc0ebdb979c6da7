package dev.toolscout.selection;

/**
 * How the lexical and the dense result lists become one ranking.
 *
 * @param method {@link Method#CONVEX}: {@code alpha * dense + (1 - alpha) * lexical} over scores normalized
 *     per query (lexical by its maximum, dense min-max over the candidates); {@link Method#RRF}: reciprocal
 *     rank fusion {@code sum 1/(rrfK + rank)}; {@link Method#LEXICAL} or {@link Method#DENSE}: one retriever
 *     alone (for evaluation baselines)
 * @param alpha the dense weight for CONVEX, 0-1
 * @param rrfK the rank constant for RRF (60 in the original paper)
 * @param depth how many candidates each retriever contributes
 */
public record Fusion(Method method, double alpha, int rrfK, int depth) {
  public enum Method {
    CONVEX,
    RRF,
    LEXICAL,
    DENSE
  }

  /** The product default; chosen on the development sets (docs/EVALUATION.md). */
  public static final Fusion DEFAULT = new Fusion(Method.CONVEX, 0.5, 60, 30);

  public Fusion {
    if (method == null) {
      throw new IllegalArgumentException("fusion method is required");
    }
    if (!(alpha >= 0 && alpha <= 1)) {
      throw new IllegalArgumentException("fusion alpha must be between 0 and 1, got: " + alpha);
    }
    if (rrfK < 1) {
      throw new IllegalArgumentException("fusion rrfK must be at least 1, got: " + rrfK);
    }
    if (depth < 1 || depth > 10_000) {
      throw new IllegalArgumentException("fusion depth must be between 1 and 10000, got: " + depth);
    }
  }

  public Fusion withMethod(Method m) {
    return new Fusion(m, alpha, rrfK, depth);
  }

  public Fusion withAlpha(double a) {
    return new Fusion(method, a, rrfK, depth);
  }

  public Fusion withDepth(int d) {
    return new Fusion(method, alpha, rrfK, d);
  }
}
