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
import dev.toolscout.verbs.VerbMatch;
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
 *   <li><b>Equivalent MCP tools</b> (etom-mcp's {@code gold_efs}: tools of different servers that do the same
 *       thing), real paraphrases: each tool of a set, as a novel verb, resolved present and removed
 *       ({@link EquivalentTools}); the groups split at random (seeded) into a calibration half and a held-out half.
 *   <li><b>The verbs set</b> (held out, never used to pick a threshold), in this module's resources {@value
 *       #VERBS}: hand-written verb manifests in seed 002's style, the only catalog; novel verbs that paraphrase one
 *       of them ({@code present} and {@code removed} as above), unrelated requests and gibberish (any substitution
 *       is wrong).
 * </ul>
 *
 * <p>For each rule (which candidate is the target, what its confidence is) and model, the threshold is {@link
 * #calibrated}: the lowest confidence at which the substitutions are at least {@value #TARGET_PRECISION} precise on
 * the development sets' requests and, apart, on the calibration half of the equivalent tools, the higher of the two;
 * coverage is the share of {@code present} cases that substitute the right tool. The product ships its rule's
 * threshold rounded down to four decimals ({@code VerbThresholds}); the per-set table checks that value. Prints
 * Markdown tables to stdout and progress to stderr.
 *
 * <p>Usage: {@code toolscout calibrate verbs <datasets-root> [--models id,id] [--sets prefix,...] [--per-set N]
 * [--work DIR] [--cases FILE]} (defaults: every model, {@value #PER_SET} queries per set, work folder {@code
 * ~/.toolscout/verb-calibration}). Not thread-safe: one run at a time.
 */
public final class VerbCalibration {
    static final double TARGET_PRECISION = 0.95;
    public static final int PER_SET = 300;
    static final int GIBBERISH = 40;
    static final String VERBS = "dev/toolscout/eval/calibration/";
    static final String EQUIVALENTS_DIR = "etom-mcp/normalized";
    static final String EQUIVALENTS = "etom equivalents";
    static final long SEED = 42;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A development set: a dataset folder and a qrels file. */
    public record DevSet(String label, String dir, String qrels) {}

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

    /**
     * The development sets whose label starts with one of {@code prefixes} (comma-separated, case-insensitive:
     * {@code etom,seal}), or all of them for {@code null}.
     *
     * @throws IllegalArgumentException naming a prefix that matches no set
     */
    public static List<DevSet> sets(String prefixes) {
        if (prefixes == null || prefixes.isBlank()) {
            return SETS;
        }
        List<DevSet> out = new ArrayList<>();
        for (String p : prefixes.split(",")) {
            String prefix = p.strip().toLowerCase(Locale.ROOT);
            List<DevSet> hit =
                    SETS.stream().filter(s -> s.label().startsWith(prefix)).toList();
            if (hit.isEmpty()) {
                throw new IllegalArgumentException("--sets: '" + p.strip() + "' starts no development set's label"
                        + " (labels: "
                        + String.join(", ", SETS.stream().map(DevSet::label).toList()) + ")");
            }
            hit.stream().filter(s -> !out.contains(s)).forEach(out::add);
        }
        return out;
    }

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
     * One resolved case: its ranked candidates (the fused order, with the product's confidences), what the rules
     * compared need of the {@value VerbResolver#CONSIDERED} best-ranked, and which targets are right.
     *
     * @param source the set's label, {@code etom equivalents}, or {@code verbs}
     * @param negative what kind of negative, for the report ({@code gibberish}, {@code unrelated}), or null
     */
    record Case(
            String source,
            Kind kind,
            String negative,
            List<VerbCandidate> ranked,
            List<Parts> parts,
            Set<String> right) {}

    /**
     * What a considered candidate's confidence is made of: the cosine of its stored embedding to the verb's search
     * text embedded as a document (the confidence before issue 32), the cosine of the two descriptions embedded
     * alone, and the input overlap ({@link VerbMatch}; NaN when the verb names no inputs).
     */
    record Parts(String name, double stored, double description, double inputs) {}

    /** Resolves cases against one engine, and measures what the rules compared need beside the candidates. */
    record Probe(CalibrationEngine engine, VerbResolver resolver, Map<String, float[]> cache) {
        Probe(CalibrationEngine engine, VerbResolver resolver) {
            this(engine, resolver, new HashMap<>());
        }

        /** Document vectors, each text embedded once per engine (the catalog's descriptions recur in every case). */
        private List<float[]> embed(List<String> texts) {
            List<String> missing =
                    texts.stream().filter(t -> !cache.containsKey(t)).distinct().toList();
            if (!missing.isEmpty()) {
                List<float[]> v = engine.model().embedDocuments(missing);
                for (int i = 0; i < missing.size(); i++) {
                    cache.put(missing.get(i), v.get(i));
                }
            }
            return texts.stream().map(cache::get).toList();
        }

        Case run(String source, Kind kind, String negative, NovelVerb verb, Set<String> excluding, Set<String> right) {
            // the rules read the considered candidates only
            List<VerbCandidate> ranked =
                    resolver.discover(Principal.ANONYMOUS, verb, VerbResolver.CONSIDERED, excluding);
            List<VerbCandidate> considered = ranked;
            List<Parts> parts = new ArrayList<>();
            if (!considered.isEmpty()) {
                List<dev.toolscout.model.ToolSpec> specs = considered.stream()
                        .map(c -> engine.catalog().get(c.name()).orElseThrow().spec())
                        .toList();
                List<String> texts = new ArrayList<>();
                texts.add(verb.searchText());
                texts.add(VerbMatch.text(verb));
                specs.forEach(sp -> texts.add(sp.description()));
                List<float[]> v = embed(texts);
                java.util.BitSet bits = new java.util.BitSet();
                specs.forEach(sp -> bits.set(
                        engine.catalog().get(sp.fullName()).orElseThrow().ord()));
                Map<String, Double> stored = new HashMap<>();
                for (dev.toolscout.indexing.Hit h : engine.index()
                        .dense(
                                v.get(0),
                                dev.toolscout.access.AllowedSet.of(
                                        bits, engine.catalog().snapshot().universe()),
                                specs.size())) {
                    stored.put(engine.catalog().snapshot().byOrd(h.ord()).name(), (double) h.score());
                }
                for (int i = 0; i < specs.size(); i++) {
                    String name = specs.get(i).fullName();
                    parts.add(new Parts(
                            name,
                            stored.getOrDefault(name, Double.NaN),
                            dev.toolscout.embedding.Vectors.cosine(v.get(1), v.get(i + 2)),
                            VerbMatch.inputOverlap(verb.inputs(), specs.get(i).parameterNames())));
                }
            }
            return new Case(source, kind, negative, ranked, parts, right);
        }
    }

    /**
     * A rule: which candidate a resolution would substitute, and its confidence ({@code NaN}: never substituted).
     */
    record Rule(String id, String description, Function<Case, Pick> pick) {}

    record Pick(String name, double confidence) {}

    static final Pick NONE = new Pick(null, Double.NaN);

    /** The most confident considered candidate by a confidence of its parts. */
    private static Pick mostBy(Case c, java.util.function.ToDoubleFunction<Parts> confidence) {
        Pick best = NONE;
        for (Parts p : c.parts()) {
            double conf = confidence.applyAsDouble(p);
            if (!Double.isNaN(conf) && (best == NONE || conf > best.confidence())) {
                best = new Pick(p.name(), conf);
            }
        }
        return best;
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

    private static Rule weighted(double w) {
        return new Rule(
                String.format(Locale.ROOT, "description+%.1finputs", w),
                String.format(
                        Locale.ROOT,
                        "the most confident of the 10 by description cosine, input overlap weighted %.1f",
                        w),
                c -> mostBy(c, p -> VerbMatch.confidence(p.description(), p.inputs(), w)));
    }

    /** The rules compared; the first is what {@link VerbResolver} does. */
    static final List<Rule> RULES = List.of(
            new Rule(
                    "product",
                    "the most confident of the 10 best-ranked candidates by VerbMatch (description cosine, input"
                            + " overlap weighted " + VerbMatch.INPUT_WEIGHT + ")",
                    VerbCalibration::mostConfident),
            new Rule(
                    "stored-text-cosine",
                    "the most confident of the 10 by the cosine of its stored embedding (name, description, examples,"
                            + " parameters) to the verb's search text (before issue 32)",
                    c -> mostBy(c, Parts::stored)),
            weighted(0.1),
            weighted(0.2),
            weighted(0.3),
            new Rule("product+2margin", "the product's pick, its confidence plus twice its lead over the next", c -> {
                Pick p = mostConfident(c);
                return p == NONE ? NONE : new Pick(p.name(), p.confidence() + 2 * margin(c, p));
            }));

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
        run(root, models, work, perSet, casesFile, SETS);
    }

    /**
     * {@link #run(Path, List, Path, int, Path)} over some of the development sets ({@link #sets}); the equivalent
     * MCP tools are always in (from etom-mcp).
     */
    public void run(Path root, List<String> models, Path work, int perSet, Path casesFile, List<DevSet> sets)
            throws IOException {
        if (perSet < 1) {
            throw new IllegalArgumentException("--per-set must be at least 1, got: " + perSet);
        }
        Map<String, List<Case>> dev = new LinkedHashMap<>();
        Map<String, List<Case>> held = new LinkedHashMap<>();
        for (String model : models) {
            LocalEmbeddingModels.dimension(model); // an unknown id fails before minutes of embedding
            List<Case> heldOut = new ArrayList<>();
            dev.put(model, developmentCases(root, model, work, perSet, sets, heldOut));
            heldOut.addAll(verbsCases(model, work));
            held.put(model, heldOut);
        }
        report(dev, held);
        curve(dev, held);
        out.flush();
        if (casesFile != null) {
            CaseFile.write(casesFile, dev, held);
        }
    }

    // ---- the cases ----

    private List<Case> developmentCases(
            Path root, String model, Path work, int perSet, List<DevSet> sets, List<Case> heldOut) throws IOException {
        List<Case> out = new ArrayList<>();
        Map<String, List<DevSet>> byDir = new LinkedHashMap<>();
        byDir.put(EQUIVALENTS_DIR, new ArrayList<>());
        sets.forEach(s -> byDir.computeIfAbsent(s.dir(), d -> new ArrayList<>()).add(s));
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
                if (e.getKey().equals(EQUIVALENTS_DIR)) {
                    EquivalentTools.cases(root.resolve(EQUIVALENTS_DIR), ds, probe, out, heldOut, this::progress);
                }
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
                            e.getValue().isEmpty()
                                    ? EQUIVALENTS
                                    : e.getValue().get(0).label(),
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
                engine.catalog(), ranker, engine.model(), engine.access(), engine.fusion(), OptionalDouble.empty());
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

    /** Whether a case is one of etom-mcp's equivalent tools (else a request of a development set, or gibberish). */
    private static boolean equivalent(Case c) {
        return c.source().startsWith(EQUIVALENTS);
    }

    /**
     * The threshold a rule gets from the calibration cases: the lowest at which its substitutions are at least
     * {@value #TARGET_PRECISION} precise on the requests of the development sets (with their gibberish) and, apart,
     * on the calibration half of the equivalent tools: the higher of the two, so neither kind of case pays for the
     * other. NaN when either never is.
     */
    static double calibrated(List<Case> calibration, Rule rule) {
        List<Case> requests = calibration.stream().filter(c -> !equivalent(c)).toList();
        List<Case> tools =
                calibration.stream().filter(VerbCalibration::equivalent).toList();
        double r = requests.isEmpty() ? Double.NEGATIVE_INFINITY : threshold(requests, rule, TARGET_PRECISION);
        double t = tools.isEmpty() ? Double.NEGATIVE_INFINITY : threshold(tools, rule, TARGET_PRECISION);
        return Math.max(r, t);
    }

    private static Map<String, List<Case>> bySource(List<Case> cases) {
        Map<String, List<Case>> out = new LinkedHashMap<>();
        for (Case c : cases) {
            out.computeIfAbsent(c.source(), k -> new ArrayList<>()).add(c);
        }
        return out;
    }

    private void report(Map<String, List<Case>> dev, Map<String, List<Case>> held) {
        out.printf(
                Locale.ROOT,
                "Threshold: the lowest at which a rule's substitutions are at least %.0f%% precise on the calibration"
                        + " cases (the development sets' requests and gibberish; apart, the calibration half of the"
                        + " equivalent MCP tools; the higher of the two). Coverage = right substitutions / present cases;"
                        + " 2 SE is the precision's noise (binomial). The held-out cases never set a threshold.%n%n",
                100 * TARGET_PRECISION);
        out.println("| model | rule | threshold | requests: precision / coverage | equivalents (calibration):"
                + " precision / coverage | equivalents (held out): substituted / precision (2 SE) / coverage / wrong"
                + " when removed | verbs set (held out): precision / coverage / wrong (removed / unrelated /"
                + " gibberish) |");
        out.println("|---|---|---|---|---|---|---|");
        for (String model : dev.keySet()) {
            Split split = Split.of(dev.get(model), held.get(model));
            List<Case> requests = split.requests();
            List<Case> tools = split.tools();
            List<Case> heldTools = split.heldTools();
            List<Case> verbs = split.verbs();
            for (Rule rule : RULES) {
                double t = calibrated(dev.get(model), rule);
                Outcome r = outcome(requests, rule, t);
                Outcome e = outcome(tools, rule, t);
                Outcome h = outcome(heldTools, rule, t);
                Outcome v = outcome(verbs, rule, t);
                out.printf(
                        Locale.ROOT,
                        "| %s | %s | %.4f | %s / %s | %s / %s | %d / %s (%s) / %s / %s | %s / %s / %d/%d / %d/%d /"
                                + " %d/%d |%n",
                        model,
                        rule.id(),
                        t,
                        pct(r.precision()),
                        pct(r.coverage()),
                        pct(e.precision()),
                        pct(e.coverage()),
                        h.substituted(),
                        pct(h.precision()),
                        se2(h.precision(), h.substituted()),
                        pct(h.coverage()),
                        frac(h.wrongRemoved(), h.removed()),
                        pct(v.precision()),
                        pct(v.coverage()),
                        v.wrongRemoved(),
                        v.removed(),
                        wrongOf(verbs, rule, t, "unrelated"),
                        countOf(verbs, "unrelated"),
                        wrongOf(verbs, rule, t, "gibberish"),
                        countOf(verbs, "gibberish"));
            }
        }
        Rule product = RULES.get(0);
        out.printf(
                Locale.ROOT,
                "%nThe product's rule (%s) per set, at the threshold it ships" + " (VerbThresholds):%n%n",
                product.id());
        out.println("| model | shipped threshold | calibrated now (4 decimals, rounded down) | set | present |"
                + " substituted |"
                + " precision (2 SE) | coverage | wrong when removed | gibberish substituted (highest confidence) |");
        out.println("|---|---|---|---|---|---|---|---|---|---|");
        for (String model : dev.keySet()) {
            // rounded down, so the case that set it stays in; the table below checks the value shipped
            double now = Math.floor(calibrated(dev.get(model), product) * 10_000) / 10_000;
            OptionalDouble shipped = VerbThresholds.forModel(model);
            double t = shipped.orElse(now);
            Map<String, List<Case>> sets = new LinkedHashMap<>();
            sets.put("calibration: all", dev.get(model));
            bySource(dev.get(model)).forEach((k, v) -> sets.put("calibration: " + k, v));
            sets.put("held out: all", held.get(model));
            bySource(held.get(model)).forEach((k, v) -> sets.put("held out: " + k, v));
            sets.forEach((set, cases) -> {
                Outcome o = outcome(cases, product, t);
                out.printf(
                        Locale.ROOT,
                        "| %s | %s | %.4f | %s | %d | %d | %s (%s) | %s | %s | %s (%.3f) |%n",
                        model,
                        shipped.isPresent() ? String.format(Locale.ROOT, "%.4f", t) : "none",
                        now,
                        set,
                        o.present(),
                        o.substituted(),
                        pct(o.precision()),
                        se2(o.precision(), o.substituted()),
                        pct(o.coverage()),
                        frac(o.wrongRemoved(), o.removed()),
                        frac(wrongOf(cases, product, t, "gibberish"), countOf(cases, "gibberish")),
                        maxNegative(cases, product, "gibberish"));
            });
        }
    }

    /**
     * One model's cases by kind: the development requests and equivalent tools (calibration), the held-out equivalent
     * tools and verbs.
     */
    private record Split(List<Case> requests, List<Case> tools, List<Case> heldTools, List<Case> verbs) {
        static Split of(List<Case> dev, List<Case> held) {
            return new Split(
                    dev.stream().filter(c -> !equivalent(c)).toList(),
                    dev.stream().filter(VerbCalibration::equivalent).toList(),
                    held.stream().filter(VerbCalibration::equivalent).toList(),
                    held.stream().filter(c -> !equivalent(c)).toList());
        }
    }

    /** The product's rule at fixed thresholds: what a caller choosing its own threshold would get. */
    private void curve(Map<String, List<Case>> dev, Map<String, List<Case>> held) {
        Rule product = RULES.get(0);
        out.printf(Locale.ROOT, "%nThe product's rule (%s) at other thresholds:%n%n", product.id());
        out.println("| model | threshold | requests precision / coverage | equivalents (calibration) precision /"
                + " coverage | equivalents (held out) precision / coverage | verbs set precision / coverage |");
        out.println("|---|---|---|---|---|---|");
        for (String model : dev.keySet()) {
            Split split = Split.of(dev.get(model), held.get(model));
            List<Case> requests = split.requests();
            List<Case> tools = split.tools();
            List<Case> heldTools = split.heldTools();
            List<Case> verbs = split.verbs();
            for (double t = 0.5; t < 0.951; t += 0.05) {
                Outcome r = outcome(requests, product, t);
                Outcome e = outcome(tools, product, t);
                Outcome h = outcome(heldTools, product, t);
                Outcome v = outcome(verbs, product, t);
                out.printf(
                        Locale.ROOT,
                        "| %s | %.2f | %s / %s | %s / %s | %s / %s | %s / %s |%n",
                        model,
                        t,
                        pct(r.precision()),
                        pct(r.coverage()),
                        pct(e.precision()),
                        pct(e.coverage()),
                        pct(h.precision()),
                        pct(h.coverage()),
                        pct(v.precision()),
                        pct(v.coverage()));
            }
        }
    }

    /** Twice the binomial standard error of a share over n, as percentage points ("-" for none). */
    private static String se2(double p, int n) {
        return n == 0 || Double.isNaN(p) ? "-" : String.format(Locale.ROOT, "±%.1f", 200 * Math.sqrt(p * (1 - p) / n));
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

    void progress(String format, Object... args) {
        err.printf(Locale.ROOT, "verb-calibration: " + format + "%n", args);
        err.flush();
    }
}
