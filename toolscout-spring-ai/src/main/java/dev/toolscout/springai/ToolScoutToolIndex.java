package dev.toolscout.springai;

import dev.toolscout.engine.FindResult;
import dev.toolscout.engine.SelectRequest;
import dev.toolscout.engine.ToolPage;
import dev.toolscout.engine.ToolRunner;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * ToolScout as the index a tool search runs on: the tools a principal may see and ToolScout can run, found for a
 * query ({@link ToolScout#find}: hybrid ranking inside what the access policy lets the principal see), selected for
 * a message ({@link ToolScout#select}: core tools pinned, skills, dependencies), or all of them. A tool no executor
 * of the {@link ToolRunner} runs is left out, so what is found can be called. Thread-safe.
 */
public final class ToolScoutToolIndex {
    private final ToolScout scout;
    private final ToolRunner runner;

    public ToolScoutToolIndex(ToolRunner runner) {
        this.runner = Objects.requireNonNull(runner, "runner");
        this.scout = runner.scout();
    }

    public ToolRunner runner() {
        return runner;
    }

    /** A tool found for a query, with its fused relevance (0-1). */
    public record Match(ToolSpec tool, double score) {}

    /**
     * The tools matching {@code query} that {@code principal} may see and ToolScout runs, best first.
     *
     * @param limit 1-50
     * @throws IllegalArgumentException for a blank or too long query, or a limit out of range
     */
    public List<Match> search(Principal principal, String query, int limit) {
        FindResult found = scout.find(principal, query, limit);
        List<Match> out = new ArrayList<>();
        for (FindResult.ToolMatch m : found.tools()) {
            runnable(principal, m.name()).ifPresent(spec -> out.add(new Match(spec, m.score())));
        }
        return out;
    }

    /**
     * The tools ToolScout selects for {@code message}, as {@link ToolScout#select} ranks them, that ToolScout runs.
     *
     * @param k 1-50, or {@code null} for the configured default
     * @param conversationId the conversation the message belongs to, or {@code null}
     */
    public List<ToolSpec> select(Principal principal, String message, Integer k, String conversationId) {
        SelectRequest request = new SelectRequest(message, principal, k, null, conversationId);
        List<ToolSpec> out = new ArrayList<>();
        for (ToolSpec spec : scout.select(request).specs()) {
            if (runner.runs(spec)) {
                out.add(spec);
            }
        }
        return out;
    }

    /** Every tool {@code principal} may see and ToolScout runs, by name. */
    public List<ToolSpec> visible(Principal principal) {
        List<ToolSpec> out = new ArrayList<>();
        int offset = 0;
        while (true) {
            ToolPage page = scout.list(principal, null, offset, ToolPage.MAX_LIMIT);
            for (ToolPage.ToolSummary t : page.tools()) {
                runnable(principal, t.name()).ifPresent(out::add);
            }
            offset += page.tools().size();
            if (page.tools().isEmpty() || offset >= page.total()) {
                return out;
            }
        }
    }

    /** {@code name} as {@code principal} may see it, when ToolScout runs it: empty for a denied and a missing tool. */
    public Optional<ToolSpec> runnable(Principal principal, String name) {
        return runner.resolve(principal, name).filter(runner::runs);
    }
}
