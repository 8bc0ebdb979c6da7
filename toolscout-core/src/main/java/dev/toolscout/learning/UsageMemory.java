package dev.toolscout.learning;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.catalog.CatalogEvent;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.learning.LearnedStore.StoredLearned;
import dev.toolscout.model.Hashing;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * What selection learned from use: each tool is also represented by the real messages it was used for (as
 * Tool2Vec and Re-Invoke represent a tool by queries, arXiv 2409.02141 and 2408.01875, here with this deployment's
 * own messages). A request's vector is compared with every learned message's, and so are their content words; a
 * tool's {@linkplain #similarity learned match} is its best message's, which the selector blends into the fused score.
 *
 * <p>A learned message votes by what it is about, not by how it is phrased: a cosine above {@link #COSINE_FLOOR}
 * counts only as far as the two messages share content ({@link Match#content}, squared). A "Can you ... for
 * me?" learned for a device-status tool shares no content word with "Can you play this song for me?", however near
 * the model puts the two, and so moves nothing. Content words are the words left once phrasing (pronouns, modal
 * verbs, "please", ...) is dropped, each weighted by how rare it is among the learned messages (a word most of them
 * use says little about any one tool). And learned messages only fill the gaps the tools' own texts leave: for a
 * request some tool's text is already near ({@link #NEAR_TOOL_TEXT}) they say nothing, since they could then only
 * lift a look-alike of that tool.
 *
 * <p>The (message, tool) pairs are stored with the catalog ({@link LearnedStore#saveLearned}), so they survive a
 * restart; each keeps the tool's content hash, and a tool removed or changed drops its pairs (at start and on the
 * catalog's events). Message vectors are not stored: they are the query model's (adapter included) and are
 * embedded again when the memory is loaded. No network and no training run: learning is storing and embedding.
 *
 * <p>Thread-safe: readers see an immutable state; writers are serialized.
 */
public final class UsageMemory {
    /** The most distinct messages kept (about 1.5 KB each in memory); learning more is refused. */
    public static final int MAX_MESSAGES = 50_000;

    private final LearnedStore store;
    private final EmbeddingModel model;
    private final Clock clock;
    private volatile State state = State.EMPTY;

    public UsageMemory(LearnedStore store, EmbeddingModel model, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.model = Objects.requireNonNull(model, "model");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** One learned message: its vector, the tools it was used for, and its content words. */
    private record Example(String message, float[] vector, List<String> tools, Set<String> words) {
        Example(String message, float[] vector, List<String> tools) {
            this(message, vector, tools, ContentWords.of(message));
        }
    }

    /**
     * What is learned, with what is derived from it once per change (not per selection): the pairs per tool, the
     * tools used together, and whether every message has its vector.
     */
    private record State(
            List<Example> examples,
            Map<String, Integer> pairsByTool,
            Map<String, List<String>> usedTogether,
            boolean embedded,
            ContentWords.Weights weights,
            double[] norms) {
        static final State EMPTY = of(List.of());

        static State of(List<Example> examples) {
            Map<String, Integer> counts = count(examples);
            ContentWords.Weights weights = ContentWords.Weights.of(
                    examples.stream().map(Example::words).toList());
            double[] norms = new double[examples.size()];
            for (int i = 0; i < norms.length; i++) {
                norms[i] = weights.norm(examples.get(i).words());
            }
            return new State(
                    List.copyOf(examples),
                    counts,
                    together(examples, counts),
                    examples.stream().allMatch(x -> x.vector() != null),
                    weights,
                    norms);
        }
    }

    /** What one {@link #learn} call did. */
    public record Learned(int pairs, int stored, Map<String, Integer> unknownTools) {}

    /** One tool's learned messages: how many, and the most recent few. */
    public record ToolSummary(String tool, int messages, List<String> recent) {}

    /** Whether anything is learned. */
    public boolean isEmpty() {
        return state.examples().isEmpty();
    }

    /** How many distinct messages are learned. */
    public int messages() {
        return state.examples().size();
    }

    /**
     * Loads the stored pairs, first dropping (from the store too, unless {@code readOnly}) those of tools the
     * catalog no longer has or has changed since. Their messages are embedded at the first {@link #similarity} call,
     * so opening a data directory for a command that ranks nothing loads no model.
     */
    public synchronized void load(Catalog.Snapshot snap, boolean readOnly) {
        List<StoredLearned> stored = store.loadLearned();
        Set<String> stale = new java.util.TreeSet<>();
        List<StoredLearned> kept = new ArrayList<>(stored.size());
        for (StoredLearned p : stored) {
            CatalogEntry e = snap.get(p.tool());
            if (e == null || !e.contentHash().equals(p.toolHash())) {
                stale.add(p.tool());
            } else {
                kept.add(p);
            }
        }
        if (!stale.isEmpty() && !readOnly) {
            store.deleteLearned(stale);
        }
        state = build(kept, vectors(), false);
    }

    /**
     * Learns {@code pairs}: each tool the catalog holds is stored with the message (replacing the same pair);
     * names the catalog lacks are counted, not stored, and not revealed beyond the caller's own names.
     *
     * @throws IllegalArgumentException when the memory would hold more than {@link #MAX_MESSAGES} messages
     */
    public synchronized Learned learn(List<LearnedPair> pairs, Catalog.Snapshot snap) {
        Map<String, Integer> unknown = new TreeMap<>();
        List<StoredLearned> rows = new ArrayList<>();
        Instant now = clock.instant();
        for (LearnedPair p : pairs) {
            String hash = Hashing.sha256Hex(p.message());
            for (String tool : p.tools()) {
                CatalogEntry e = snap.get(tool);
                if (e == null) {
                    unknown.merge(tool, 1, Integer::sum);
                    continue;
                }
                rows.add(new StoredLearned(
                        tool,
                        hash,
                        p.message(),
                        e.contentHash(),
                        p.principal(),
                        p.conversation(),
                        p.at() == null ? now : p.at()));
            }
        }
        Set<String> messages = new HashSet<>();
        state.examples().forEach(x -> messages.add(x.message()));
        rows.forEach(r -> messages.add(r.message()));
        if (messages.size() > MAX_MESSAGES) {
            throw new IllegalArgumentException("learned messages must be at most " + MAX_MESSAGES + ", got: "
                    + messages.size() + " with these pairs; reset or learn fewer");
        }
        store.saveLearned(rows);
        state = build(store.loadLearned(), vectors(), true);
        return new Learned(pairs.size(), rows.size(), unknown);
    }

    /** Forgets everything learned (store and memory); returns how many pairs were removed. */
    public synchronized int reset() {
        int n = store.deleteLearned(null);
        state = State.EMPTY;
        return n;
    }

    /**
     * Drops what was learned about tools a catalog change removed or changed. Subscribed to the catalog's events.
     */
    public void onEvents(List<CatalogEvent> events) {
        Set<String> gone = new java.util.TreeSet<>();
        for (CatalogEvent ev : events) {
            switch (ev) {
                case CatalogEvent.ActionRemoved r -> gone.add(r.tool().name());
                case CatalogEvent.ActionUpdated u -> gone.add(u.before().name());
                case CatalogEvent.InterfaceUnregistered u -> u.tools().forEach(t -> gone.add(t.name()));
                default -> {}
            }
        }
        if (!gone.isEmpty()) {
            forget(gone);
        }
    }

    private synchronized void forget(Set<String> tools) {
        if (state.pairsByTool().keySet().stream().noneMatch(tools::contains)) {
            return;
        }
        store.deleteLearned(tools);
        List<Example> kept = new ArrayList<>();
        for (Example x : state.examples()) {
            List<String> left =
                    x.tools().stream().filter(t -> !tools.contains(t)).toList();
            if (!left.isEmpty()) {
                kept.add(new Example(x.message(), x.vector(), left, x.words()));
            }
        }
        state = State.of(kept);
    }

    /**
     * The cosine between a request and a learned message at or below which the learned message says nothing; above
     * it, its say grows linearly to full at cosine 1 (times {@link Match#content}).
     */
    public static final double COSINE_FLOOR = 0.5;

    /**
     * What a tool's learned messages say about a request: those of its best message ({@link #strength} highest,
     * ties by the higher cosine).
     *
     * @param cosine the cosine between the request's query vector and the message's
     * @param content the share of content words the two have in common, 0 to 1: the cosine of their rarity-weighted
     *     content words, 0 when either has none, 1 for the same words
     * @param strength how much the message counts, 0 to 1: {@code max(0, (cosine - COSINE_FLOOR) / (1 - COSINE_FLOOR))
     *     * content * content}
     */
    public record Match(double cosine, double content, double strength) {}

    /**
     * The cosine between a request's query vector and the nearest tool's own text (its document vector) at or above
     * which learned messages say nothing about the request: the catalog's own words already reach it, and a learned
     * message, however near, can only lift a look-alike of the tool that text belongs to (two servers' tools of the
     * same kind, each used for its own requests). Learning fills the gaps the tools' texts leave. Chosen on a split of
     * the learned half of ETOM-MCP levels 1 and 2, ToolLens and metatool multi, never on the scored half
     * (docs/EVALUATION.md, "Content, not phrasing"); a cosine of the default model, as {@link #COSINE_FLOOR} is.
     */
    public static final double NEAR_TOOL_TEXT = 0.5;

    /**
     * Each tool's learned match with a request ({@code query}, its query vector, unit length, of {@code message}):
     * empty when a tool's own text is already near the request ({@code nearestTool} at or above {@link
     * #NEAR_TOOL_TEXT}); tools whose messages are all at or below {@link #COSINE_FLOOR} are absent, so are those whose
     * messages share no content word with the request.
     *
     * @param nearestTool the cosine between {@code query} and the nearest tool's document vector, as the ranking's
     *     dense search gives it; NaN when the ranking has none (then only the learned messages decide)
     */
    public Map<String, Match> similarity(float[] query, String message, double nearestTool) {
        if (nearestTool >= NEAR_TOOL_TEXT) {
            return Map.of();
        }
        State s = embedded();
        Map<String, Match> out = new HashMap<>();
        Set<String> words = null;
        double norm = 0;
        List<Example> examples = s.examples();
        for (int i = 0; i < examples.size(); i++) {
            Example x = examples.get(i);
            double cos = dot(query, x.vector());
            if (cos <= COSINE_FLOOR) {
                continue;
            }
            if (words == null) {
                words = ContentWords.of(message);
                norm = s.weights().norm(words);
            }
            double content = s.weights().cosine(words, norm, x.words(), s.norms()[i]);
            // squared: a message sharing half the request's content counts a quarter; chosen on a split of the learned
            // half of ETOM level 1, NesTools and ToolLens, never on the scored half (docs/EVALUATION.md)
            double strength = (cos - COSINE_FLOOR) / (1 - COSINE_FLOOR) * content * content;
            if (strength <= 0) {
                continue;
            }
            Match m = new Match(cos, content, strength);
            for (String t : x.tools()) {
                out.merge(
                        t,
                        m,
                        (a, b) -> a.strength() != b.strength()
                                ? (a.strength() > b.strength() ? a : b)
                                : (a.cosine() >= b.cosine() ? a : b));
            }
        }
        return out;
    }

    /** Two tools count as used together when at least this many learned messages used both. */
    public static final int CO_USE_MIN_MESSAGES = 2;

    /** ... and when at least this share of the messages that used the first also used the second. */
    public static final double CO_USE_MIN_SHARE = 0.5;

    /**
     * The tools often used together with each tool: for a tool A, every B that at least {@link
     * #CO_USE_MIN_MESSAGES} learned messages used together with A, in at least {@link #CO_USE_MIN_SHARE} of A's
     * messages; most shared first, ties by name. Tools with none are absent. Worked out when what is learned changes.
     */
    public Map<String, List<String>> usedTogether() {
        return state.usedTogether();
    }

    private static Map<String, List<String>> together(List<Example> examples, Map<String, Integer> pairsByTool) {
        Map<String, Map<String, Integer>> together = new HashMap<>();
        for (Example x : examples) {
            for (String a : x.tools()) {
                for (String b : x.tools()) {
                    if (!a.equals(b)) {
                        together.computeIfAbsent(a, k -> new HashMap<>()).merge(b, 1, Integer::sum);
                    }
                }
            }
        }
        Map<String, List<String>> out = new HashMap<>();
        together.forEach((a, counts) -> {
            int uses = pairsByTool.getOrDefault(a, 0);
            List<String> with = counts.entrySet().stream()
                    .filter(e -> e.getValue() >= CO_USE_MIN_MESSAGES && e.getValue() >= CO_USE_MIN_SHARE * uses)
                    .sorted(Map.Entry.<String, Integer>comparingByValue()
                            .reversed()
                            .thenComparing(Map.Entry.comparingByKey()))
                    .map(Map.Entry::getKey)
                    .toList();
            if (!with.isEmpty()) {
                out.put(a, with);
            }
        });
        return Map.copyOf(out);
    }

    /** The vectors already embedded, by message: kept when the learned state is rebuilt (a reload, a learn). */
    private Map<String, float[]> vectors() {
        Map<String, float[]> known = new HashMap<>();
        state.examples().stream().filter(x -> x.vector() != null).forEach(x -> known.put(x.message(), x.vector()));
        return known;
    }

    /** Per tool, in name order: how many messages taught it and the {@code recent} most recent of them. */
    public List<ToolSummary> show(int recent) {
        Map<String, List<StoredLearned>> byTool = new TreeMap<>();
        for (StoredLearned p : store.loadLearned()) {
            byTool.computeIfAbsent(p.tool(), k -> new ArrayList<>()).add(p);
        }
        List<ToolSummary> out = new ArrayList<>();
        byTool.forEach((tool, list) -> {
            list.sort(java.util.Comparator.comparing(StoredLearned::at)
                    .reversed()
                    .thenComparing(StoredLearned::messageHash));
            out.add(new ToolSummary(
                    tool,
                    list.size(),
                    list.stream().limit(recent).map(StoredLearned::message).toList()));
        });
        return out;
    }

    /** The state with every message embedded (those loaded from the store are embedded here, once). */
    private State embedded() {
        State s = state;
        if (s.embedded()) {
            return s;
        }
        synchronized (this) {
            List<Example> out = new ArrayList<>(state.examples().size());
            for (Example x : state.examples()) {
                out.add(
                        x.vector() != null
                                ? x
                                : new Example(x.message(), model.embedQuery(x.message()), x.tools(), x.words()));
            }
            state = State.of(out);
            return state;
        }
    }

    private State build(List<StoredLearned> pairs, Map<String, float[]> known, boolean embed) {
        Map<String, List<String>> toolsOf = new LinkedHashMap<>();
        for (StoredLearned p : pairs) {
            toolsOf.computeIfAbsent(p.message(), k -> new ArrayList<>()).add(p.tool());
        }
        List<Example> examples = new ArrayList<>(toolsOf.size());
        toolsOf.forEach((message, tools) -> {
            float[] v = known.get(message);
            examples.add(new Example(message, v != null || !embed ? v : model.embedQuery(message), List.copyOf(tools)));
        });
        return State.of(examples);
    }

    private static Map<String, Integer> count(List<Example> examples) {
        Map<String, Integer> n = new HashMap<>();
        examples.forEach(x -> x.tools().forEach(t -> n.merge(t, 1, Integer::sum)));
        return Map.copyOf(n);
    }

    private static double dot(float[] a, float[] b) {
        if (a.length != b.length) {
            return 0;
        }
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
