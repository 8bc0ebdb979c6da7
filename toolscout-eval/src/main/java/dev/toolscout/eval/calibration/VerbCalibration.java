package dev.toolscout.eval.calibration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.eval.dataset.DatasetTool;
import dev.toolscout.eval.dataset.NormalizedDataset;
import dev.toolscout.eval.dataset.ScoredQuery;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.HybridRanker;
import dev.toolscout.verbs.NovelVerb;
import dev.toolscout.verbs.VerbCandidate;
import dev.toolscout.verbs.VerbManifest;
import dev.toolscout.verbs.VerbManifestJson;
import dev.toolscout.verbs.VerbResolver;
import dev.toolscout.verbs.VerbThresholds;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

/**
 * Calibrates the {@link VerbResolver}'s substitution threshold per embedding model, and measures how well each
 * candidate confidence rule tells right substitutions from wrong ones (docs/VERBS.md, "Calibration").
 *
 * <p>Labelled cases, each resolved through the product's catalog, index and ranking (an engine per dataset and
 * model, in its own data directory under the work folder, so a rerun embeds nothing):
 *
 * <ul>
 *   <li><b>Development sets</b> ({@code datasets/README.md}), open-set protocol: every query with exactly one gold
 *       tool (the first {@value #PER_SET} of a set, in file order) is resolved twice, once with the whole catalog
 *       ({@code present}: right only when it substitutes the gold tool or a duplicate of it, a tool of the same
 *       name or description) and once with the gold tool and its duplicates left out ({@code removed}: any
 *       substitution is wrong); and {@value #GIBBERISH} strings of no meaning per catalog (any substitution is
 *       wrong).
 *   <li><b>The verbs set</b> (held out, never used to pick a threshold), in this module's resources {@value
 *       #VERBS}: hand-written verb manifests in seed 002's style, the only catalog; novel verbs that paraphrase one
 *       of them ({@code present} and {@code removed} as above), unrelated requests and gibberish (any substitution
 *       is wrong).
 * </ul>
 *
 * <p>For each rule (which candidate is the target, what its confidence is) and model, the threshold is the lowest
 * confidence at which the substitutions made on the development sets are at least {@value #TARGET_PRECISION}
 * precise; coverage is the share of {@code present} cases that substitute the right tool. The product ships its
 * rule's threshold rounded down to four decimals ({@code VerbThresholds}); the per-set table checks that value. Prints Markdown tables to
 * stdout and progress to stderr.
 *
 * <p>Usage: {@code toolscout calibrate verbs <datasets-root> [--models id,id] [--per-set N] [--work DIR]
 * [--cases FILE]} (defaults: every model, {@value #PER_SET} queries per set, work folder {@code
 * ~/.toolscout/verb-calibration}). Not thread-safe: one run at a time.
 */
public final class VerbCalibration {
    static final double TARGET_PRECISION = 0.95;
    public static final int PER_SET = 300;
    static final int GIBBERISH = 40;
    static final String VERBS = "dev/toolscout/eval/calibration/";
    private static final long SEED = 42;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A development set: a dataset folder and a qrels file. */
    record DevSet(String label, String dir, String qrels) {}

    static final List<DevSet> SETS = List.of(
            new DevSet("metatool single", "metatool-toole/normalized", "qrels.single.tsv"),
            new DevSet("toollens test", "toollens/normalized", "qrels.test.tsv"),
            new DevSet("seal-tools dev", "seal-tools/normalized", "qrels.dev.tsv"),
            new DevSet("toolret apibank", "toolret-subsets-via-mftr/apibank/normalized", "qrels.tsv"),
            new DevSet("toolret apigen", "toolret-subsets-via-mftr/apigen/normalized", "qrels.tsv"),
            new DevSet("toolret gorilla-hf", "toolret-subsets-via-mftr/gorilla-huggingface/normalized", "qrels.tsv"),
            new DevSet("toolret toolink", "toolret-subsets-via-mftr/toolink/normalized", "qrels.tsv"),
            new DevSet("etom level 1", "etom-mcp/normalized", "qrels.level1.tsv"),
            new DevSet("etom level 2", "etom-mcp/normalized", "qrels.level2.tsv"));

    /** Hand-written text of no meaning; {@link #gibberish} adds random strings to it. */
    static final List<String> GIBBERISH_FIXED = List.of(
            "xqzv blorf",
            "asdf qwer zxcv",
            "lorem ipsum dolor sit amet",
            "blah blah blah",
            "zzzz",
            "qwertyuiop",
            "foo bar baz",
            "hmm ok",
            "flibber jabber wocky",
            "aaaa bbbb cccc");

    /** How a case is labelled: what a substitution means there. */
    enum Kind {
        /** The right target is in the catalog: a substitution is right only if it is that target. */
        PRESENT,
        /** The right target was left out: any substitution is wrong. */
        REMOVED,
        /** No target is right (gibberish, unrelated requests): any substitution is wrong. */
        NEGATIVE
    }

    /**
     * One resolved case: its ranked candidates (the fused order, with confidences) and which targets are right.
     *
     * @param source the set's label, or {@code verbs}
     * @param negative what kind of negative, for the report ({@code gibberish}, {@code unrelated}), or null
     */
    record Case(
            String source,
            Kind kind,
            String negative,
            List<VerbCandidate> ranked,
            Set<String> right,
            double topOverlap,
            double topQueryCosine) {}

    /** Resolves cases against one engine, and measures what the rules compared need beside the candidates. */
    record Probe(CalibrationEngine engine, VerbResolver resolver) {
        Case run(String source, Kind kind, String negative, NovelVerb verb, Set<String> excluding, Set<String> right) {
            List<VerbCandidate> ranked =
                    resolver.discover(Principal.ANONYMOUS, verb, VerbResolver.MAX_LIMIT, excluding);
            double overlap = 0;
            double queryCosine = Double.NaN;
            if (!ranked.isEmpty()) {
                dev.toolscout.catalog.CatalogEntry top =
                        engine.catalog().get(ranked.get(0).name()).orElseThrow();
                String text = verb.searchText();
                Set<String> q = words(text);
                Set<String> c = words(dev.toolscout.indexing.ToolText.embeddingText(top.spec()) + " "
                        + dev.toolscout.indexing.ToolText.labels(top.spec()) + " "
                        + dev.toolscout.indexing.ToolText.parameterText(top.spec()));
                overlap = q.isEmpty()
                        ? 0
                        : (double) q.stream().filter(c::contains).count() / q.size();
                java.util.BitSet bits = new java.util.BitSet();
                bits.set(top.ord());
                List<dev.toolscout.indexing.Hit> h = engine.index()
                        .dense(
                                engine.model().embedQuery(text),
                                dev.toolscout.access.AllowedSet.of(
                                        bits, engine.catalog().snapshot().universe()),
                                1);
                queryCosine = h.isEmpty() ? Double.NaN : h.get(0).score();
            }
            return new Case(source, kind, negative, ranked, right, overlap, queryCosine);
        }
    }

    private static final Set<String> STOP = Set.of(
            "a",
            "an",
            "the",
            "and",
            "or",
            "of",
            "to",
            "in",
            "on",
            "for",
            "with",
            "by",
            "at",
            "from",
            "is",
            "are",
            "be",
            "it",
            "its",
            "this",
            "that",
            "me",
            "my",
            "i",
            "you",
            "your",
            "we",
            "our",
            "can",
            "please",
            "what",
            "which",
            "how",
            "do",
            "does",
            "some",
            "any",
            "all",
            "about",
            "into",
            "as",
            "if",
            "so",
            "parameters",
            "want",
            "need",
            "would",
            "like",
            "get",
            "give",
            "find",
            "show",
            "tell");

    /** Distinct lower-case words of two letters or more, stop words left out, a plural -s dropped. */
    static Set<String> words(String text) {
        Set<String> out = new HashSet<>();
        for (String w : dev.toolscout.indexing.ToolText.splitIdentifier(text).split(" ")) {
            if (w.length() < 2 || STOP.contains(w)) {
                continue;
            }
            out.add(w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.substring(0, w.length() - 1) : w);
        }
        return out;
    }

    /**
     * A rule: which candidate a resolution would substitute, and its confidence ({@code NaN}: never substituted).
     */
    record Rule(String id, String description, Function<Case, Pick> pick) {}

    record Pick(String name, double confidence) {}

    static final Pick NONE = new Pick(null, Double.NaN);

    /** The fused top candidate's confidence. */
    private static Pick top(Case c) {
        return c.ranked().isEmpty()
                ? NONE
                : new Pick(c.ranked().get(0).name(), c.ranked().get(0).confidence());
    }

    /** What {@link VerbResolver#resolve} substitutes: the most confident of the {@value VerbResolver#CONSIDERED} best. */
    private static Pick mostConfident(Case c) {
        VerbCandidate best = null;
        for (VerbCandidate v : c.ranked()
                .subList(0, Math.min(VerbResolver.CONSIDERED, c.ranked().size()))) {
            if (!Double.isNaN(v.confidence()) && (best == null || v.confidence() > best.confidence())) {
                best = v;
            }
        }
        return best == null ? NONE : new Pick(best.name(), best.confidence());
    }

    /** How far the pick's confidence is above the best other considered candidate's (0 when there is none). */
    private static double margin(Case c, Pick p) {
        double other = 0;
        for (VerbCandidate v : c.ranked()
                .subList(0, Math.min(VerbResolver.CONSIDERED, c.ranked().size()))) {
            if (!v.name().equals(p.name()) && !Double.isNaN(v.confidence())) {
                other = Math.max(other, v.confidence());
            }
        }
        return p.confidence() - other;
    }

    /** The rules compared; the first is what {@link VerbResolver} does. */
    static final List<Rule> RULES = List.of(
            new Rule(
                    "most-confident-of-10",
                    "the most confident of the 10 best-ranked candidates (the product)",
                    VerbCalibration::mostConfident),
            new Rule("fused-top", "the best-ranked candidate, its confidence", VerbCalibration::top),
            new Rule(
                    "fused-top-query-cosine",
                    "the best-ranked candidate, its cosine to the query vector (the ranking's,"
                            + " with the model's query adapter or instruction)",
                    c -> c.ranked().isEmpty()
                            ? NONE
                            : new Pick(c.ranked().get(0).name(), c.topQueryCosine())),
            new Rule(
                    "most-confident+2margin",
                    "the product's pick, its confidence plus twice its lead over the next",
                    c -> {
                        Pick p = mostConfident(c);
                        return p == NONE ? NONE : new Pick(p.name(), p.confidence() + 2 * margin(c, p));
                    }),
            new Rule(
                    "fused-top+0.3words",
                    "the best-ranked candidate, its confidence plus 0.3 times the share of the"
                            + " text's content words its text holds",
                    c -> c.ranked().isEmpty()
                            ? NONE
                            : new Pick(top(c).name(), top(c).confidence() + 0.3 * c.topOverlap())));

    private final CalibrationEngine.Opener engines;
    private final PrintWriter out;
    private final PrintWriter err;

    /**
     * @param engines opens the product on a data directory (the composition root's engine)
     * @param out where the Markdown tables go
     * @param err where progress goes
     */
    public VerbCalibration(CalibrationEngine.Opener engines, PrintWriter out, PrintWriter err) {
        this.engines = Objects.requireNonNull(engines, "engines");
        this.out = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
    }

    /**
     * Resolves the labelled cases of the development sets under {@code root} ({@code perSet} queries a set) and of
     * the verbs set, per model, and prints the tables; the engines' data directories go under {@code work}; with a
     * {@code casesFile}, one JSON line per case there too.
     */
    public void run(Path root, List<String> models, Path work, int perSet, Path casesFile) throws IOException {
        if (perSet < 1) {
            throw new IllegalArgumentException("--per-set must be at least 1, got: " + perSet);
        }
        Map<String, List<Case>> dev = new LinkedHashMap<>();
        Map<String, List<Case>> held = new LinkedHashMap<>();
        for (String model : models) {
            LocalEmbeddingModels.dimension(model); // an unknown id fails before minutes of embedding
            dev.put(model, developmentCases(root, model, work, perSet));
            held.put(model, verbsCases(model, work));
        }
        report(dev, held);
        curve(dev, held);
        out.flush();
        if (casesFile != null) {
            writeCases(casesFile, dev, held);
        }
    }

    /** One JSON line per case and model: its label and its top candidates, for analysis beyond the tables. */
    private static void writeCases(Path file, Map<String, List<Case>> dev, Map<String, List<Case>> held)
            throws IOException {
        try (java.io.BufferedWriter w = java.nio.file.Files.newBufferedWriter(file)) {
            for (Map<String, List<Case>> m : List.of(dev, held)) {
                for (Map.Entry<String, List<Case>> e : m.entrySet()) {
                    for (Case c : e.getValue()) {
                        com.fasterxml.jackson.databind.node.ObjectNode n = JSON.createObjectNode();
                        n.put("model", e.getKey());
                        n.put("source", c.source());
                        n.put("kind", c.kind().name().toLowerCase(Locale.ROOT));
                        n.put("negative", c.negative());
                        c.right().stream().sorted().forEach(n.putArray("right")::add);
                        com.fasterxml.jackson.databind.node.ArrayNode top = n.putArray("top");
                        n.put("top_overlap", c.topOverlap());
                        n.put("top_query_cosine", c.topQueryCosine());
                        for (VerbCandidate v :
                                c.ranked().subList(0, Math.min(10, c.ranked().size()))) {
                            top.addObject()
                                    .put("name", v.name())
                                    .put("confidence", v.confidence())
                                    .put("score", v.score())
                                    .put("lexical_rank", v.lexicalRank())
                                    .put("dense_rank", v.denseRank());
                        }
                        w.write(n.toString());
                        w.newLine();
                    }
                }
            }
        }
    }

    // ---- the cases ----

    private List<Case> developmentCases(Path root, String model, Path work, int perSet) throws IOException {
        List<Case> out = new ArrayList<>();
        Map<String, List<DevSet>> byDir = new LinkedHashMap<>();
        SETS.forEach(s -> byDir.computeIfAbsent(s.dir(), d -> new ArrayList<>()).add(s));
        for (Map.Entry<String, List<DevSet>> e : byDir.entrySet()) {
            NormalizedDataset ds = NormalizedDataset.read(root.resolve(e.getKey()));
            List<ToolSpec> specs = ds.tools().stream().map(DatasetTool::spec).toList();
            Map<String, Set<String>> duplicates = duplicates(ds.tools());
            Map<String, String> nameOfId = new HashMap<>();
            ds.tools().forEach(t -> nameOfId.put(t.id(), t.spec().fullName()));
            Path dataDir = work.resolve(e.getKey().replace('/', '_')).resolve(model);
            progress("%s: %s, %d tools, data in %s", model, e.getKey(), specs.size(), dataDir);
            try (CalibrationEngine engine = engines.open(dataDir, specs, model);
                    HybridRanker ranker = new HybridRanker(engine.index())) {
                Probe probe = new Probe(engine, resolver(engine, ranker));
                for (DevSet set : e.getValue()) {
                    int n = 0;
                    for (ScoredQuery q : ds.scoredQueries(set.qrels())) {
                        if (q.gold().size() != 1) {
                            continue;
                        }
                        if (n++ == perSet) {
                            break;
                        }
                        Set<String> right =
                                duplicates.get(nameOfId.get(q.gold().iterator().next()));
                        NovelVerb verb = NovelVerb.described(q.text());
                        out.add(probe.run(set.label(), Kind.PRESENT, null, verb, Set.of(), right));
                        out.add(probe.run(set.label(), Kind.REMOVED, null, verb, right, right));
                    }
                    progress("%s: %s, %d queries", model, set.label(), Math.min(n, perSet));
                }
                for (String g : gibberish(GIBBERISH)) {
                    out.add(probe.run(
                            e.getValue().get(0).label(),
                            Kind.NEGATIVE,
                            "gibberish",
                            NovelVerb.described(g),
                            Set.of(),
                            Set.of()));
                }
            }
        }
        return out;
    }

    /** Per wire name, the names of the tools that count as the same: same dataset name or same description. */
    static Map<String, Set<String>> duplicates(List<DatasetTool> tools) {
        Map<String, Set<String>> byKey = new HashMap<>();
        for (DatasetTool t : tools) {
            byKey.computeIfAbsent("n:" + t.displayName(), k -> new HashSet<>())
                    .add(t.spec().fullName());
            byKey.computeIfAbsent("d:" + t.spec().description(), k -> new HashSet<>())
                    .add(t.spec().fullName());
        }
        Map<String, Set<String>> out = new HashMap<>();
        for (DatasetTool t : tools) {
            Set<String> same = new HashSet<>(byKey.get("n:" + t.displayName()));
            same.addAll(byKey.get("d:" + t.spec().description()));
            out.put(t.spec().fullName(), Set.copyOf(same));
        }
        return out;
    }

    private List<Case> verbsCases(String model, Path work) throws IOException {
        List<VerbManifest> verbs =
                VerbManifestJson.readAll(JSON.readTree(resource("verbs.json")), VERBS + "verbs.json");
        List<ToolSpec> specs = verbs.stream().map(VerbManifest::toSpec).toList();
        List<Case> out = new ArrayList<>();
        Path dataDir = work.resolve("verbs").resolve(model);
        try (CalibrationEngine engine = engines.open(dataDir, specs, model);
                HybridRanker ranker = new HybridRanker(engine.index())) {
            Probe probe = new Probe(engine, resolver(engine, ranker));
            String file = VERBS + "novel-verbs.jsonl";
            int line = 0;
            for (String text : resource("novel-verbs.jsonl").split("\n")) {
                line++;
                if (text.isBlank()) {
                    continue;
                }
                JsonNode n = JSON.readTree(text);
                List<String> inputs = new ArrayList<>();
                n.path("inputs").forEach(i -> inputs.add(i.asText()));
                NovelVerb verb = new NovelVerb(
                        n.path("verb").asText(null), n.path("description").asText(null), inputs);
                String expected = n.path("expected").asText(null);
                if (expected != null) {
                    String name = VerbManifest.toolName(expected);
                    if (specs.stream().noneMatch(s -> s.fullName().equals(name))) {
                        throw new IllegalStateException(
                                file + " line " + line + ": expected verb " + expected + " is not in verbs.json");
                    }
                    out.add(probe.run("verbs", Kind.PRESENT, null, verb, Set.of(), Set.of(name)));
                    out.add(probe.run("verbs", Kind.REMOVED, null, verb, Set.of(name), Set.of(name)));
                } else {
                    String negative = n.path("negative").asText("unrelated");
                    out.add(probe.run("verbs", Kind.NEGATIVE, negative, verb, Set.of(), Set.of()));
                }
            }
        }
        progress("%s: verbs set, %d cases", model, out.size());
        return out;
    }

    /** A resolver with no threshold: the calibration looks at the candidates and decides itself. */
    private static VerbResolver resolver(CalibrationEngine engine, HybridRanker ranker) {
        return new VerbResolver(
                engine.catalog(),
                ranker,
                engine.index(),
                engine.model(),
                engine.access(),
                engine.fusion(),
                OptionalDouble.empty());
    }

    /** The fixed strings, then random ones of 1-4 pseudo-words of 2-9 lower-case letters (seeded: same every run). */
    static List<String> gibberish(int n) {
        List<String> out = new ArrayList<>(GIBBERISH_FIXED);
        Random rnd = new Random(SEED);
        while (out.size() < n) {
            int words = 1 + rnd.nextInt(4);
            StringBuilder b = new StringBuilder();
            for (int w = 0; w < words; w++) {
                int len = 2 + rnd.nextInt(8);
                b.append(w > 0 ? " " : "");
                for (int i = 0; i < len; i++) {
                    b.append((char) ('a' + rnd.nextInt(26)));
                }
            }
            out.add(b.toString());
        }
        return out.subList(0, n);
    }

    private static String resource(String name) {
        try (InputStream in = VerbCalibration.class.getClassLoader().getResourceAsStream(VERBS + name)) {
            if (in == null) {
                throw new IllegalStateException(VERBS + name + ": resource not found on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(VERBS + name + ": cannot be read", e);
        }
    }

    // ---- the measures ----

    /** What a rule does at one threshold over some cases. */
    record Outcome(
            int present, int right, int substituted, int wrongRemoved, int removed, int wrongNegative, int negative) {
        double precision() {
            return substituted == 0 ? Double.NaN : (double) right / substituted;
        }

        double coverage() {
            return present == 0 ? Double.NaN : (double) right / present;
        }
    }

    static Outcome outcome(List<Case> cases, Rule rule, double threshold) {
        int present = 0;
        int right = 0;
        int substituted = 0;
        int wrongRemoved = 0;
        int removed = 0;
        int wrongNegative = 0;
        int negative = 0;
        for (Case c : cases) {
            Pick p = rule.pick().apply(c);
            boolean subs = !Double.isNaN(p.confidence()) && p.confidence() >= threshold;
            switch (c.kind()) {
                case PRESENT -> present++;
                case REMOVED -> removed++;
                case NEGATIVE -> negative++;
            }
            if (!subs) {
                continue;
            }
            substituted++;
            if (c.kind() == Kind.PRESENT && c.right().contains(p.name())) {
                right++;
            } else if (c.kind() == Kind.REMOVED) {
                wrongRemoved++;
            } else if (c.kind() == Kind.NEGATIVE) {
                wrongNegative++;
            }
        }
        return new Outcome(present, right, substituted, wrongRemoved, removed, wrongNegative, negative);
    }

    /**
     * The lowest confidence (one of the cases' own) at which the substitutions are at least {@code target}
     * precise, or NaN when none is.
     */
    static double threshold(List<Case> cases, Rule rule, double target) {
        List<double[]> scored = new ArrayList<>(); // {confidence, right?}
        for (Case c : cases) {
            Pick p = rule.pick().apply(c);
            if (!Double.isNaN(p.confidence())) {
                scored.add(new double[] {
                    p.confidence(), c.kind() == Kind.PRESENT && c.right().contains(p.name()) ? 1 : 0
                });
            }
        }
        scored.sort(Comparator.comparingDouble((double[] s) -> -s[0]));
        double best = Double.NaN;
        int right = 0;
        for (int i = 0; i < scored.size(); i++) {
            right += (int) scored.get(i)[1];
            boolean lastOfTie = i + 1 == scored.size() || scored.get(i + 1)[0] < scored.get(i)[0];
            if (lastOfTie && (double) right / (i + 1) >= target) {
                best = scored.get(i)[0];
            }
        }
        return best;
    }

    /** The highest confidence any negative case's pick had (NaN when none had one). */
    static double maxNegative(List<Case> cases, Rule rule, String negative) {
        double max = Double.NaN;
        for (Case c : cases) {
            if (c.kind() == Kind.NEGATIVE && negative.equals(c.negative())) {
                double conf = rule.pick().apply(c).confidence();
                if (!Double.isNaN(conf) && !(conf <= max)) {
                    max = conf;
                }
            }
        }
        return max;
    }

    private void report(Map<String, List<Case>> dev, Map<String, List<Case>> held) {
        out.printf(
                Locale.ROOT,
                "Target precision %.2f on the development sets (present, removed and gibberish"
                        + " cases pooled); coverage = right substitutions / present cases; verbs = the held-out verbs set at the"
                        + " development sets' threshold.%n%n",
                TARGET_PRECISION);
        out.println("| model | rule | threshold | dev substituted | dev precision | dev coverage | wrong when"
                + " removed | max gibberish | verbs precision | verbs coverage | verbs wrong (removed / unrelated /"
                + " gibberish) |");
        out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        for (String model : dev.keySet()) {
            for (Rule rule : RULES) {
                double t = threshold(dev.get(model), rule, TARGET_PRECISION);
                Outcome d = outcome(dev.get(model), rule, t);
                Outcome v = outcome(held.get(model), rule, t);
                out.printf(
                        Locale.ROOT,
                        "| %s | %s | %.4f | %d | %s | %s | %s | %.3f | %s | %s | %d/%d / %d/%d / %d/%d" + " |%n",
                        model,
                        rule.id(),
                        t,
                        d.substituted(),
                        pct(d.precision()),
                        pct(d.coverage()),
                        frac(d.wrongRemoved(), d.removed()),
                        maxNegative(dev.get(model), rule, "gibberish"),
                        pct(v.precision()),
                        pct(v.coverage()),
                        v.wrongRemoved(),
                        v.removed(),
                        wrongOf(held.get(model), rule, t, "unrelated"),
                        countOf(held.get(model), "unrelated"),
                        wrongOf(held.get(model), rule, t, "gibberish"),
                        countOf(held.get(model), "gibberish"));
            }
        }
        Rule product = RULES.get(0);
        out.printf(
                Locale.ROOT,
                "%nThe product's rule (%s) per set, at the threshold it ships" + " (VerbThresholds):%n%n",
                product.id());
        out.println("| model | shipped threshold | calibrated now (4 decimals, rounded down) | set | present |"
                + " substituted |"
                + " precision | coverage | wrong when removed | gibberish substituted |");
        out.println("|---|---|---|---|---|---|---|---|---|---|");
        for (String model : dev.keySet()) {
            // rounded down, so the case that set it stays in; the table below checks the value shipped
            double now = Math.floor(threshold(dev.get(model), product, TARGET_PRECISION) * 10_000) / 10_000;
            OptionalDouble shipped = VerbThresholds.forModel(model);
            double t = shipped.orElse(now);
            Map<String, List<Case>> bySet = new LinkedHashMap<>();
            bySet.put("all development sets", dev.get(model));
            for (Case c : dev.get(model)) {
                bySet.computeIfAbsent(c.source(), k -> new ArrayList<>()).add(c);
            }
            bySet.put("verbs (held out)", held.get(model));
            bySet.forEach((set, cases) -> {
                Outcome o = outcome(cases, product, t);
                out.printf(
                        Locale.ROOT,
                        "| %s | %s | %.4f | %s | %d | %d | %s | %s | %s | %s |%n",
                        model,
                        shipped.isPresent() ? String.format(Locale.ROOT, "%.4f", t) : "none",
                        now,
                        set,
                        o.present(),
                        o.substituted(),
                        pct(o.precision()),
                        pct(o.coverage()),
                        frac(o.wrongRemoved(), o.removed()),
                        frac(wrongOf(cases, product, t, "gibberish"), countOf(cases, "gibberish")));
            });
        }
    }

    /** The product's rule at fixed thresholds: what a caller choosing its own threshold would get. */
    private void curve(Map<String, List<Case>> dev, Map<String, List<Case>> held) {
        Rule product = RULES.get(0);
        out.printf(Locale.ROOT, "%nThe product's rule (%s) at other thresholds:%n%n", product.id());
        out.println("| model | threshold | dev precision | dev coverage | verbs precision | verbs coverage |"
                + " verbs wrong (removed / unrelated / gibberish) |");
        out.println("|---|---|---|---|---|---|---|");
        for (String model : dev.keySet()) {
            for (double t = 0.5; t < 0.951; t += 0.05) {
                Outcome d = outcome(dev.get(model), product, t);
                Outcome v = outcome(held.get(model), product, t);
                out.printf(
                        Locale.ROOT,
                        "| %s | %.2f | %s | %s | %s | %s | %d / %d / %d |%n",
                        model,
                        t,
                        pct(d.precision()),
                        pct(d.coverage()),
                        pct(v.precision()),
                        pct(v.coverage()),
                        v.wrongRemoved(),
                        wrongOf(held.get(model), product, t, "unrelated"),
                        wrongOf(held.get(model), product, t, "gibberish"));
            }
        }
    }

    private static int wrongOf(List<Case> cases, Rule rule, double t, String negative) {
        return (int) cases.stream()
                .filter(c -> c.kind() == Kind.NEGATIVE && negative.equals(c.negative()))
                .filter(c -> {
                    double conf = rule.pick().apply(c).confidence();
                    return !Double.isNaN(conf) && conf >= t;
                })
                .count();
    }

    private static int countOf(List<Case> cases, String negative) {
        return (int) cases.stream()
                .filter(c -> c.kind() == Kind.NEGATIVE && negative.equals(c.negative()))
                .count();
    }

    private static String pct(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * v);
    }

    private static String frac(int a, int b) {
        return a + "/" + b;
    }

    private void progress(String format, Object... args) {
        err.printf(Locale.ROOT, "verb-calibration: " + format + "%n", args);
        err.flush();
    }
}
