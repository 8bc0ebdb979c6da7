package dev.toolscout.server.http.api;

/**
 * How many agent runs ({@code POST /v1/conversations/{id}/messages}) may be in progress at once: per principal
 * (the user, group and space an API key maps to, so several keys of one user share it; the local user without
 * keys), and on the whole server. A run past either gets 429 with {@code
 * Retry-After} at once, before anything runs. A run holds no request thread while it waits for the model (it runs
 * on its own virtual thread, the HTTP exchange suspended), so these bound the work in flight, the provider calls
 * and the memory of the runs, not the server's threads.
 *
 * @param maxRuns the most runs in progress on the server (default {@value #DEFAULT_MAX_RUNS})
 * @param maxRunsPerPrincipal the most runs in progress for one principal (default {@value
 *     #DEFAULT_MAX_RUNS_PER_PRINCIPAL})
 */
public record RunLimits(int maxRuns, int maxRunsPerPrincipal) {
    public static final int DEFAULT_MAX_RUNS = 64;
    public static final int DEFAULT_MAX_RUNS_PER_PRINCIPAL = 16;
    public static final RunLimits DEFAULT = new RunLimits(DEFAULT_MAX_RUNS, DEFAULT_MAX_RUNS_PER_PRINCIPAL);

    public RunLimits {
        if (maxRuns < 1 || maxRuns > 10_000) {
            throw new IllegalArgumentException("--max-runs must be between 1 and 10000, got: " + maxRuns);
        }
        if (maxRunsPerPrincipal < 1 || maxRunsPerPrincipal > maxRuns) {
            throw new IllegalArgumentException("--max-runs-per-principal must be between 1 and --max-runs (" + maxRuns
                    + "), got: " + maxRunsPerPrincipal);
        }
    }
}
