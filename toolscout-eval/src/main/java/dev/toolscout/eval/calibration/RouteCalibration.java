package dev.toolscout.eval.calibration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolscout.eval.dataset.DatasetTool;
import dev.toolscout.eval.dataset.NormalizedDataset;
import dev.toolscout.eval.dataset.ScoredQuery;
import dev.toolscout.memory.Memory;
import dev.toolscout.memory.MemoryIntent;
import dev.toolscout.memory.MemoryScope;
import dev.toolscout.memory.MemoryType;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.routing.RouteDecision;
import dev.toolscout.routing.RouteThresholds;
import dev.toolscout.routing.VectorRouter;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Calibrates the {@link dev.toolscout.routing.VectorRouter}'s thresholds per embedding model on a labelled route set,
 * and prints each route's precision and recall (docs/ROUTING.md, "Calibration").
 *
 * <p>The labelled set, every case routed through the product's router (an engine per catalog and model in the work
 * folder, so a rerun embeds nothing):
 *
 * <ul>
 *   <li><b>In catalog</b>: the first {@value #PER_SET} scored queries of five development sets, each routed against
 *       its own catalog; the right tools are its gold tools and their duplicates (same name or description).
 *   <li><b>Out of catalog</b>: the first {@value #OUT_PER_SET} queries of each of the other four sets, routed against
 *       this catalog (one dataset's queries against another's catalog; a few are in fact answerable there: label
 *       noise, counted against the router), and {@value #GIBBERISH} strings of no meaning.
 *   <li><b>Memory</b> (this module's resource {@value #ROUTE_SET}, hand-written): 40 facts stored as memories over
 *       the demo catalog, each asked back in other words twice (right: that fact); 40 personal or general questions
 *       whose answer was never stored, 27 near misses (another subject near a stored one: "my cat" beside "my dog",
 *       a third party), 7 negations, the last 100 tool requests of ToolLens (all of them when it has fewer) and the
 *       gibberish (any memory is wrong); 20 requests to store or forget (right: the memory tool, never a memory).
 *   <li><b>LoCoMo</b> (with {@code --locomo}; datasets/locomo-memory, read in place): each conversation's facts as one
 *       user's memories, its answerable questions (right: a memory the question's evidence cites) and adversarial
 *       ones (any memory is wrong). The calibration conversations join the fit; the held-out ones are only scored.
 *   <li><b>No-parameter requests</b>: exact requests for the demo catalog's tools that need no parameters (the same
 *       file), plus every in-catalog query above whose single gold tool has no required parameter.
 * </ul>
 *
 * <p>Thresholds, in the router's order (each route sees only the cases the earlier ones left): DIRECT_MEMORY and
 * SKILL_EXECUTE the lowest cosine at which the route is right at least {@value #EXECUTE_PRECISION} of the time (an
 * answer or a run without the LLM), SKILL_HINT at least {@value #HINT_PRECISION}; a route that never gets there with
 * at least {@value #MIN_PREDICTIONS} decisions is disabled. TOOL_FILTER's is the highest cosine that keeps {@value
 * #FILTER_RECALL} of the in-catalog cases out of LLM_REQUIRED by their cosine alone; the router also keeps a case
 * whose words match a tool, which only adds to what stays. Printed rounded down to two decimals, as shipped in
 * {@link RouteThresholds}, and evaluated as shipped.
 *
 * <p>Usage: {@code toolscout calibrate routes <datasets-root> [--models id,id] [--work DIR]} (defaults: {@link
 * #MODELS}; work folder {@code ~/.toolscout/route-calibration}). The message and the stored texts are embedded as
 * documents, so {@code bge-small-en-v1.5-q-instruct} routes exactly as {@code bge-small-en-v1.5-q} and ships its
 * thresholds. Not thread-safe: one run at a time.
 */
public final class RouteCalibration {
    static final int PER_SET = 200;
    static final int OUT_PER_SET = 50;
    static final int GIBBERISH = 40;
    static final double EXECUTE_PRECISION = 0.95;
    static final double HINT_PRECISION = 0.90;
    static final double FILTER_RECALL = 0.98;
    static final int MIN_PREDICTIONS = 5;
    static final String ROUTE_SET = "dev/toolscout/eval/calibration/route-set.json";
    /** The models calibrated when none is named. */
    public static final List<String> MODELS = List.of("all-minilm-l6-v2-q", "bge-small-en-v1.5-q");

    private static final ObjectMapper JSON = new ObjectMapper();

    record DevSet(String label, String dir, String qrels) {}

    static final List<DevSet> SETS = List.of(
            new DevSet("metatool single", "metatool-toole/normalized", "qrels.single.tsv"),
            new DevSet("toollens test", "toollens/normalized", "qrels.test.tsv"),
            new DevSet("toolret apibank", "toolret-subsets-via-mftr/apibank/normalized", "qrels.tsv"),
            new DevSet("etom level 1", "etom-mcp/normalized", "qrels.level1.tsv"),
            new DevSet("seal-tools dev", "seal-tools/normalized", "qrels.dev.tsv"));

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

    /**
     * One routed case.
     *
     * @param inCatalog whether the catalog it was routed against can answer it
     * @param gold the right tools (empty when none is)
     * @param noParameterGold whether its one right tool needs no parameters (a SKILL_EXECUTE case)
     * @param rightMemory the id of the memory that answers it, or null
     * @param memory the nearest memory's id, or null
     * @param tool the nearest tool, or null
     * @param category a LoCoMo question's category (1 multi-hop, 2 temporal, 3 knowledge, 4 single-hop, 5
     *     adversarial), else 0
     * @param answerMemories a LoCoMo question's memories that hold its answer (half of the gold answer's content
     *     words in their text and session date, the set's README's rough check), beside {@code rightMemories}: the
     *     second, looser label; empty elsewhere
     * @param memoryAnswer the memory the router answers with at no threshold ({@link VectorRouter#directMemory}), or
     *     null
     */
    record Case(
            String source,
            String text,
            boolean inCatalog,
            Set<String> gold,
            boolean noParameterGold,
            Set<String> rightMemories,
            List<RouteDecision.Evidence> memories,
            String tool,
            double toolCosine,
            boolean toolRequired,
            boolean wordsMatch,
            boolean heldOut,
            int category,
            Set<String> answerMemories,
            RouteDecision.Evidence memoryAnswer) {
        Case {
            rightMemories = rightMemories == null ? Set.of() : Set.copyOf(rightMemories);
            memories = List.copyOf(memories);
            answerMemories = answerMemories == null ? Set.of() : Set.copyOf(answerMemories);
        }

        boolean toolRight() {
            return tool != null && gold.contains(tool);
        }

        /** Whether a memory answers it at all (DIRECT_MEMORY is the route to take). */
        boolean answerable() {
            return !rightMemories.isEmpty();
        }

        /**
         * The memory the router answers with at {@code threshold}, or null: the router's own rule, run once at no
         * threshold (a fit asks this of every case at thousands of thresholds). The evidence is nearest first, so the
         * router answers with that memory at a threshold exactly when its cosine clears it.
         */
        RouteDecision.Evidence answer(double threshold) {
            return memoryAnswer != null && RouteThresholds.clears(memoryAnswer.cosine(), threshold)
                    ? memoryAnswer
                    : null;
        }

        /** This LoCoMo case, in a held-out conversation or not, with its category and looser label. */
        Case locomo(boolean held, int cat, Set<String> answers) {
            return new Case(
                    source,
                    text,
                    inCatalog,
                    gold,
                    noParameterGold,
                    rightMemories,
                    memories,
                    tool,
                    toolCosine,
                    toolRequired,
                    wordsMatch,
                    held,
                    cat,
                    answers,
                    memoryAnswer);
        }
    }

    private final CalibrationEngine.Opener engines;
    private final List<ToolSpec> demo;
    private final PrintWriter out;
    private final PrintWriter err;

    /**
     * @param engines opens the product on a data directory (the composition root's engine)
     * @param demo the demo catalog the memory set is stored over
     * @param out where the Markdown report goes
     * @param err where progress goes
     */
    public RouteCalibration(CalibrationEngine.Opener engines, List<ToolSpec> demo, PrintWriter out, PrintWriter err) {
        this.engines = Objects.requireNonNull(engines, "engines");
        this.demo = List.copyOf(demo);
        this.out = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
    }

    /**
     * Routes every labelled case of the development sets under {@code root} and of the route set, per model, and
     * prints the report; the engines' data directories go under {@code work}.
     */
    public void run(Path root, List<String> models, Path work) throws IOException {
        run(root, models, work, null);
    }

    /**
     * As {@link #run(Path, List, Path)}, with the LoCoMo memory set too when {@code locomo} is given: its
     * calibration conversations join the labelled cases the thresholds are fitted on, its held-out conversations
     * are only scored (a table of their own).
     */
    public void run(Path root, List<String> models, Path work, LocomoCases.Locomo locomo) throws IOException {
        if (locomo != null) {
            LocomoCases.check(locomo); // before minutes of routing
        }
        JsonNode set = JSON.readTree(resource(ROUTE_SET));
        out.println("# Route calibration\n");
        for (String model : models) {
            List<Case> cases = new ArrayList<>();
            if (root != null) {
                cases.addAll(toolCases(root, model, work));
            }
            cases.addAll(memoryCases(root, model, work, set));
            if (locomo != null) {
                cases.addAll(new LocomoCases(engines, demo, err).read(locomo, model, work));
            }
            report(model, cases);
        }
        out.flush();
    }

    // ---- the cases ----

    private List<Case> toolCases(Path root, String model, Path work) {
        Map<String, NormalizedDataset> data = new LinkedHashMap<>();
        Map<String, List<ScoredQuery>> queries = new LinkedHashMap<>();
        for (DevSet s : SETS) {
            NormalizedDataset ds = NormalizedDataset.read(root.resolve(s.dir()));
            data.put(s.label(), ds);
            queries.put(s.label(), ds.scoredQueries(s.qrels()));
        }
        List<Case> out = new ArrayList<>();
        for (DevSet s : SETS) {
            NormalizedDataset ds = data.get(s.label());
            List<ToolSpec> specs = ds.tools().stream().map(DatasetTool::spec).toList();
            Map<String, Set<String>> dup = duplicates(ds.tools());
            Map<String, String> nameOfId = new HashMap<>();
            Map<String, ToolSpec> specOfId = new HashMap<>();
            ds.tools().forEach(t -> {
                nameOfId.put(t.id(), t.spec().fullName());
                specOfId.put(t.id(), t.spec());
            });
            Path dir = work.resolve(s.dir().replace('/', '_')).resolve(model);
            progress("%s: %s, %d tools, data in %s", model, s.label(), specs.size(), dir);
            try (CalibrationEngine e = engines.open(dir, specs, model)) {
                int n = 0;
                for (ScoredQuery q : queries.get(s.label())) {
                    if (n++ == PER_SET) {
                        break;
                    }
                    Set<String> gold = new HashSet<>();
                    q.gold().forEach(g -> gold.addAll(dup.getOrDefault(nameOfId.get(g), Set.of())));
                    boolean noParam = q.gold().size() == 1
                            && specOfId.containsKey(q.gold().iterator().next())
                            && !dev.toolscout.routing.VectorRouter.hasRequired(
                                    specOfId.get(q.gold().iterator().next()));
                    out.add(route(e, s.label() + " (in)", q.text(), true, gold, noParam, null));
                }
                for (DevSet other : SETS) {
                    if (other == s) {
                        continue;
                    }
                    List<ScoredQuery> oq = queries.get(other.label());
                    for (ScoredQuery q : oq.subList(0, Math.min(OUT_PER_SET, oq.size()))) {
                        out.add(route(e, s.label() + " (out)", q.text(), false, Set.of(), false, null));
                    }
                }
                for (String g : gibberish(GIBBERISH)) {
                    out.add(route(e, "gibberish", g, false, Set.of(), false, null));
                }
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
        return out;
    }

    private List<Case> memoryCases(Path root, String model, Path work, JsonNode set) throws IOException {
        Path dir = work.resolve("memory").resolve(model);
        progress("%s: memory set over the demo catalog, data in %s", model, dir);
        List<Case> out = new ArrayList<>();
        try (CalibrationEngine e = engines.open(dir, demo, model)) {
            Principal p = Principal.ANONYMOUS;
            // start from no memories: a rerun stores the same facts again
            for (Memory m : e.memories().recent(p, null, Integer.MAX_VALUE)) {
                e.memories().forget(p, m.id());
            }
            for (JsonNode f : set.path("facts")) {
                Memory m = e.memories()
                        .store(
                                p,
                                MemoryScope.USER,
                                MemoryType.FACT,
                                f.path("fact").asText(),
                                null);
                for (JsonNode q : f.path("questions")) {
                    out.add(route(e, "memory: stored fact", q.asText(), false, Set.of(), false, m.id()));
                }
            }
            for (JsonNode q : set.path("unrelated")) {
                out.add(route(e, "memory: not stored", q.asText(), false, Set.of(), false, null));
            }
            for (JsonNode r : set.path("memory_requests")) {
                for (JsonNode q : r.path("requests")) {
                    out.add(route(
                            e,
                            "memory: request",
                            q.asText(),
                            true,
                            Set.of(r.path("tool").asText()),
                            false,
                            null));
                }
            }
            for (JsonNode q : set.path("near_misses")) {
                out.add(route(e, "memory: near miss", q.asText(), false, Set.of(), false, null));
            }
            for (JsonNode q : set.path("negations")) {
                out.add(route(e, "memory: negation", q.asText(), false, Set.of(), false, null));
            }
            NormalizedDataset lens = NormalizedDataset.read(root.resolve("toollens/normalized"));
            List<ScoredQuery> lq = lens.scoredQueries("qrels.test.tsv");
            for (ScoredQuery q : lq.subList(Math.max(0, lq.size() - 100), lq.size())) {
                out.add(route(e, "memory: tool request", q.text(), false, Set.of(), false, null));
            }
            for (String g : gibberish(GIBBERISH)) {
                out.add(route(e, "memory: gibberish", g, false, Set.of(), false, null));
            }
            for (JsonNode r : set.path("no_parameter_requests")) {
                for (JsonNode q : r.path("requests")) {
                    out.add(route(
                            e,
                            "demo: no-parameter request",
                            q.asText(),
                            true,
                            Set.of(r.path("tool").asText()),
                            true,
                            null));
                }
            }
        }
        return out;
    }

    private static Case route(
            CalibrationEngine e,
            String source,
            String text,
            boolean inCatalog,
            Set<String> gold,
            boolean noParam,
            String rightMemory) {
        return route(
                e,
                Principal.ANONYMOUS,
                source,
                text,
                inCatalog,
                gold,
                noParam,
                rightMemory == null ? Set.of() : Set.of(rightMemory),
                Map.of());
    }

    /**
     * Routes {@code text} as {@code p}; {@code ids} renames the stored memories' ids in the evidence (to a dataset's
     * own ids), when given.
     */
    static Case route(
            CalibrationEngine e,
            Principal p,
            String source,
            String text,
            boolean inCatalog,
            Set<String> gold,
            boolean noParam,
            Set<String> rightMemories,
            Map<String, String> ids) {
        // no thresholds matter here: the evidence (the nearest of each kind, with cosines) is what is calibrated
        RouteDecision d = e.router().route(text, p, 10);
        List<RouteDecision.Evidence> memories = new ArrayList<>();
        String tool = null;
        double toolCosine = Double.NEGATIVE_INFINITY;
        boolean required = false;
        for (RouteDecision.Evidence ev : d.evidence()) {
            if (ev.kind() == RouteDecision.Kind.MEMORY) {
                memories.add(new RouteDecision.Evidence(
                        ev.kind(), ids.getOrDefault(ev.name(), ev.name()), ev.cosine(), false, ev.text()));
            } else if (ev.kind() == RouteDecision.Kind.TOOL && tool == null) {
                tool = ev.name();
                toolCosine = ev.cosine();
                required = ev.requiredParameters();
            }
        }
        return new Case(
                source,
                text,
                inCatalog,
                gold,
                noParam,
                rightMemories,
                memories,
                tool,
                toolCosine,
                required,
                d.wordsMatch(),
                false,
                0,
                Set.of(),
                VectorRouter.directMemory(MemoryIntent.of(text), text, memories, Double.NEGATIVE_INFINITY));
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

    static List<String> gibberish(int n) {
        List<String> out = new ArrayList<>(GIBBERISH_FIXED);
        Random rnd = new Random(42);
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

    // ---- thresholds ----

    /** The route each case takes under {@code t}, in the router's order. */
    static String routeOf(Case c, RouteThresholds t) {
        if (c.answer(t.directMemory()) != null) {
            return "DIRECT_MEMORY";
        }
        if (c.tool() != null && !c.toolRequired() && RouteThresholds.clears(c.toolCosine(), t.skillExecute())) {
            return "SKILL_EXECUTE";
        }
        if (c.tool() != null && RouteThresholds.clears(c.toolCosine(), t.skillHint())) {
            return "SKILL_HINT";
        }
        if (c.tool() != null && (Double.isNaN(t.toolFilter()) || c.toolCosine() >= t.toolFilter() || c.wordsMatch())) {
            return "TOOL_FILTER";
        }
        return "LLM_REQUIRED";
    }

    /** Whether taking {@code route} was right for {@code c}. */
    static boolean right(Case c, String route, RouteThresholds t) {
        return switch (route) {
            case "DIRECT_MEMORY" ->
                c.rightMemories().contains(c.answer(t.directMemory()).name());
            case "SKILL_EXECUTE", "SKILL_HINT" -> c.toolRight();
            case "TOOL_FILTER" -> c.inCatalog();
            default -> !c.inCatalog() && !c.answerable();
        };
    }

    /** Whether {@code route} was the one to take for {@code c} (recall's denominator). */
    static boolean wanted(Case c, String route) {
        return switch (route) {
            case "DIRECT_MEMORY" -> c.answerable();
            case "SKILL_EXECUTE" -> c.noParameterGold();
            case "SKILL_HINT" -> c.inCatalog() && !c.gold().isEmpty();
            case "TOOL_FILTER" -> c.inCatalog();
            default -> !c.inCatalog() && !c.answerable();
        };
    }

    record Pr(int decided, int right, int wanted, int found) {
        double precision() {
            return decided == 0 ? Double.NaN : (double) right / decided;
        }

        double recall() {
            return wanted == 0 ? Double.NaN : (double) found / wanted;
        }
    }

    static Pr measure(List<Case> cases, RouteThresholds t, String route) {
        int decided = 0;
        int right = 0;
        int wanted = 0;
        int found = 0;
        for (Case c : cases) {
            boolean took = routeOf(c, t).equals(route);
            boolean ok = took && right(c, route, t);
            decided += took ? 1 : 0;
            right += ok ? 1 : 0;
            if (wanted(c, route)) {
                wanted++;
                found += ok ? 1 : 0;
            }
        }
        return new Pr(decided, right, wanted, found);
    }

    /** The lowest candidate threshold at which {@code route} is at least {@code target} precise, or NaN. */
    static double lowestPrecise(
            List<Case> cases,
            String route,
            double target,
            java.util.function.DoubleFunction<RouteThresholds> with,
            Predicate<Case> relevant) {
        TreeSet<Double> candidates = new TreeSet<>();
        for (Case c : cases) {
            if (relevant.test(c)) {
                if (route.equals("DIRECT_MEMORY")) {
                    c.memories().forEach(m -> candidates.add(m.cosine()));
                } else {
                    candidates.add(c.toolCosine());
                }
            }
        }
        for (double t : candidates) {
            if (Double.isInfinite(t)) {
                continue;
            }
            Pr pr = measure(cases, with.apply(down(t)), route);
            if (pr.decided() >= MIN_PREDICTIONS && pr.precision() >= target) {
                return down(t);
            }
        }
        return Double.NaN;
    }

    /** Rounded down to two decimals: the case that set it stays in. */
    static double down(double t) {
        return Math.floor(t * 100 + 1e-9) / 100.0;
    }

    static RouteThresholds fit(String model, List<Case> cases) {
        double nan = Double.NaN;
        double mem = lowestPrecise(
                cases,
                "DIRECT_MEMORY",
                EXECUTE_PRECISION,
                t -> new RouteThresholds(model, t, nan, nan, -1),
                c -> !c.memories().isEmpty());
        double exec = lowestPrecise(
                cases,
                "SKILL_EXECUTE",
                EXECUTE_PRECISION,
                t -> new RouteThresholds(model, mem, t, nan, -1),
                c -> c.tool() != null && !c.toolRequired());
        double hint = lowestPrecise(
                cases,
                "SKILL_HINT",
                HINT_PRECISION,
                t -> new RouteThresholds(model, mem, exec, t, -1),
                c -> c.tool() != null);
        // the highest floor that keeps FILTER_RECALL of the in-catalog cases routed to tools by their cosine alone: the
        // words rule only adds to what stays (on these sets every in-catalog query shares a word with its catalog, so a
        // floor fitted with it would be 1, and a request matching by meaning only would lose its tools)
        RouteThresholds upTo = new RouteThresholds(model, mem, exec, hint, -1);
        List<Double> in = new ArrayList<>();
        for (Case c : cases) {
            if (c.inCatalog() && !routeOf(c, upTo).equals("DIRECT_MEMORY")) {
                in.add(c.toolCosine());
            }
        }
        in.sort(null);
        double filter = down(in.get((int) Math.floor((1 - FILTER_RECALL) * in.size())));
        return new RouteThresholds(model, mem, exec, hint, filter);
    }

    // ---- the report ----

    private void report(String model, List<Case> all) {
        List<Case> cases = all.stream().filter(c -> !c.heldOut()).toList();
        List<Case> held = all.stream().filter(Case::heldOut).toList();
        RouteThresholds fitted = fit(model, cases);
        RouteThresholds shipped = RouteThresholds.forModel(model).orElse(RouteThresholds.disabled(model));
        out.printf(
                Locale.ROOT,
                "## %s%n%n%d cases: %d in catalog, %d out of catalog or gibberish, %d memory "
                        + "questions with a stored answer, %d no-parameter requests.%n%n",
                model,
                cases.size(),
                count(cases, Case::inCatalog),
                count(cases, c -> !c.inCatalog() && !c.answerable()),
                count(cases, Case::answerable),
                count(cases, Case::noParameterGold));
        out.println("| route | fitted | decided | precision | recall | shipped | decided | precision | recall |");
        out.println("|---|---|---|---|---|---|---|---|---|");
        for (String r : List.of("DIRECT_MEMORY", "SKILL_EXECUTE", "SKILL_HINT", "TOOL_FILTER", "LLM_REQUIRED")) {
            Pr f = measure(cases, fitted, r);
            Pr pr = measure(cases, shipped, r);
            out.printf(
                    Locale.ROOT,
                    "| %s | %s | %d | %s | %s | %s | %d | %s | %s |%n",
                    r,
                    th(fitted, r),
                    f.decided(),
                    pct(f.precision()),
                    pct(f.recall()),
                    th(shipped, r),
                    pr.decided(),
                    pct(pr.precision()),
                    pct(pr.recall()));
        }
        out.println();
        out.println("Routes per source at the shipped thresholds:");
        out.println();
        out.println("| source | cases | DIRECT_MEMORY | SKILL_EXECUTE | SKILL_HINT | TOOL_FILTER | LLM_REQUIRED |");
        out.println("|---|---|---|---|---|---|---|");
        Map<String, Map<String, Integer>> by = new LinkedHashMap<>();
        for (Case c : cases) {
            by.computeIfAbsent(c.source(), k -> new HashMap<>()).merge(routeOf(c, shipped), 1, Integer::sum);
        }
        for (Case c : held) {
            by.computeIfAbsent(c.source(), k -> new HashMap<>()).merge(routeOf(c, shipped), 1, Integer::sum);
        }
        by.forEach((src, m) -> {
            int n = m.values().stream().mapToInt(Integer::intValue).sum();
            out.printf(
                    Locale.ROOT,
                    "| %s | %d | %d | %d | %d | %d | %d |%n",
                    src,
                    n,
                    m.getOrDefault("DIRECT_MEMORY", 0),
                    m.getOrDefault("SKILL_EXECUTE", 0),
                    m.getOrDefault("SKILL_HINT", 0),
                    m.getOrDefault("TOOL_FILTER", 0),
                    m.getOrDefault("LLM_REQUIRED", 0));
        });
        out.println();
        if (!held.isEmpty()) {
            new LocomoReport(out).print(cases, held, fitted, shipped);
        }
        out.flush();
    }

    static String th(RouteThresholds t, String route) {
        double v = switch (route) {
            case "DIRECT_MEMORY" -> t.directMemory();
            case "SKILL_EXECUTE" -> t.skillExecute();
            case "SKILL_HINT" -> t.skillHint();
            case "TOOL_FILTER" -> t.toolFilter();
            default -> Double.NaN;
        };
        return route.equals("LLM_REQUIRED")
                ? "below tool_filter"
                : Double.isNaN(v) ? "disabled" : String.format(Locale.ROOT, "%.2f", v);
    }

    static int count(List<Case> cases, Predicate<Case> p) {
        return (int) cases.stream().filter(p).count();
    }

    static String pct(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * v);
    }

    private static String resource(String name) {
        try (InputStream in = RouteCalibration.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource not found: " + name);
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void progress(String format, Object... args) {
        err.printf(Locale.ROOT, format + "%n", args);
        err.flush();
    }
}
