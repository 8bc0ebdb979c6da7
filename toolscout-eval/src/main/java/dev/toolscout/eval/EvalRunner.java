package dev.toolscout.eval;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.access.AccessControl;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.eval.dataset.DatasetTool;
import dev.toolscout.eval.dataset.NormalizedDataset;
import dev.toolscout.eval.dataset.ScoredQuery;
import dev.toolscout.indexing.ToolIndex;
import dev.toolscout.learning.LearnedPair;
import dev.toolscout.learning.UsageMemory;
import dev.toolscout.model.Hashing;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.render.TokenCounter;
import dev.toolscout.selection.Fusion;
import dev.toolscout.selection.HybridRanker;
import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selector;
import dev.toolscout.selection.SelectorConfig;
import dev.toolscout.selection.Shortened;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Evaluates retrieval on a dataset in the normalized layout, through the product's own catalog, index and
 * selector (an isolated data directory per dataset and model, so a rerun embeds nothing). Scores use the
 * dataset's tool ids, never the sanitized wire names.
 *
 * <p>In two steps, so that the product's parts are chosen and wired only by its composition root: {@link
 * #plan()} reads the dataset and says which engine to open (data directory, tools, model, selector
 * configuration); the caller opens it and hands its parts to {@link #run}, then closes it. Not thread-safe.
 */
public final class EvalRunner {
    /** Every query is ranked this deep (the selector's maximum K); MRR looks this far. */
    public static final int DEPTH = SelectorConfig.MAX_K;

    /**
     * What ranks the tools: {@code hybrid} is the product ({@link Fusion#DEFAULT}); {@code bm25} and {@code
     * dense} are its two retrievers alone (no dependency expansion either); {@code langchain4j} reproduces LangChain4j's {@code
     * VectorToolSearchStrategy} with the same embedding model: exact cosine between the query and each tool's
     * {@code name + ": " + description} (the name alone when the description is blank), no BM25, and the model's
     * plain query vectors ({@link LocalEmbeddingModels#createPlain}: no query adapter, which is ToolScout's).
     * {@code dense} and {@code hybrid} use the product's model, query adapter included. {@code whole} is the
     * product without its clause search (every message ranked whole only), to measure what the clause search
     * adds. {@code dense-plain} is the embedding model alone: the product's tool vectors and dense index searched
     * with the model's plain query vector, no query adapter (what "dense-only" means for a peer that uses the same
     * model), where {@code dense} is the product's own dense list. {@code hybrid-plain} is the product with the
     * model's plain query vectors (no query adapter): the adapter's effect on the whole ranking.
     */
    public enum Retriever {
        bm25(Fusion.Method.LEXICAL),
        dense(Fusion.Method.DENSE),
        densePlain(Fusion.Method.DENSE),
        hybrid(null),
        hybridPlain(null),
        whole(null),
        langchain4j(null);

        final Fusion.Method method;

        Retriever(Fusion.Method method) {
            this.method = method;
        }

        /** The name on the command line ({@code dense-plain} for {@link #densePlain}). */
        public String cliName() {
            return switch (this) {
                case densePlain -> "dense-plain";
                case hybridPlain -> "hybrid-plain";
                default -> name();
            };
        }

        /**
         * The retriever named {@code name} on the command line.
         *
         * @throws IllegalArgumentException naming the value and the accepted ones
         */
        public static Retriever parse(String name) {
            for (Retriever r : values()) {
                if (r.cliName().equals(name)) {
                    return r;
                }
            }
            throw new IllegalArgumentException("--retriever must be one of "
                    + Arrays.stream(values()).map(Retriever::cliName).toList() + ", got: '" + name + "'");
        }
    }

    /**
     * @param dataset the dataset folder (holding {@code normalized/}, or the normalized folder itself)
     * @param qrels a qrels file (a path, or a name inside the normalized folder), or null to pick the only
     *     one / {@code qrels.test.tsv}
     * @param ks the cut-offs for recall and completeness
     * @param byName collapse ranked and gold ids to tool names (first occurrence) before scoring
     * @param workDir where the isolated data directories go
     * @param perQuery a file to write one JSON line per scored query to (its gold tools, the top 10 and the rank of
     *     each gold tool), or null
     * @param learnQrels a qrels file whose queries and gold tools are learned ({@code toolscout learn}) before the
     *     queries of {@code qrels} are scored again, or null; no query may be in both
     */
    public record Options(
            Path dataset,
            String qrels,
            List<Integer> ks,
            Retriever retriever,
            boolean byName,
            String modelId,
            Path workDir,
            Integer limit,
            Path perQuery,
            String learnQrels) {
        public Options(
                Path dataset,
                String qrels,
                List<Integer> ks,
                Retriever retriever,
                boolean byName,
                String modelId,
                Path workDir,
                Integer limit,
                Path perQuery) {
            this(dataset, qrels, ks, retriever, byName, modelId, workDir, limit, perQuery, null);
        }

        public Options(
                Path dataset,
                String qrels,
                List<Integer> ks,
                Retriever retriever,
                boolean byName,
                String modelId,
                Path workDir,
                Integer limit) {
            this(dataset, qrels, ks, retriever, byName, modelId, workDir, limit, null);
        }
    }

    /**
     * Results, metrics in percent.
     *
     * @param shortened how many queries were longer than the ranking reads ({@link Selector#MAX_MESSAGE_CHARS}) and
     *     were ranked on their first part
     */
    public record Result(
            String dataset,
            String qrels,
            String retriever,
            int queries,
            Map<Integer, Double> recall,
            Map<Integer, Double> complete,
            double ndcg10,
            double mrr,
            double tokensSavedPct,
            double latencyP50,
            double latencyP99,
            int shortened,
            Result withoutLearning,
            Gain learningGain) {
        public Result(
                String dataset,
                String qrels,
                String retriever,
                int queries,
                Map<Integer, Double> recall,
                Map<Integer, Double> complete,
                double ndcg10,
                double mrr,
                double tokensSavedPct,
                double latencyP50,
                double latencyP99,
                int shortened) {
            this(
                    dataset,
                    qrels,
                    retriever,
                    queries,
                    recall,
                    complete,
                    ndcg10,
                    mrr,
                    tokensSavedPct,
                    latencyP50,
                    latencyP99,
                    shortened,
                    null,
                    null);
        }

        Result withBaseline(Result before, Gain gain) {
            return new Result(
                    dataset,
                    qrels,
                    retriever,
                    queries,
                    recall,
                    complete,
                    ndcg10,
                    mrr,
                    tokensSavedPct,
                    latencyP50,
                    latencyP99,
                    shortened,
                    before,
                    gain);
        }
    }

    /**
     * What learning changed on the same queries, in points (learned minus not learned, per query, then averaged),
     * each with two standard errors of that mean of paired differences: a change within two standard errors is
     * noise at about 95%.
     */
    public record Gain(double ndcg10, double ndcg10TwoSe, double recall5, double recall5TwoSe) {
        static Gain of(double[] ndcgBefore, double[] ndcgAfter, double[] r5Before, double[] r5After) {
            double[] n = paired(ndcgBefore, ndcgAfter);
            double[] r = paired(r5Before, r5After);
            return new Gain(n[0], n[1], r[0], r[1]);
        }

        /** The mean of {@code after - before} and two standard errors of it, in percent, one decimal. */
        private static double[] paired(double[] before, double[] after) {
            int n = before.length;
            if (n == 0) {
                return new double[] {0, 0};
            }
            double sum = 0;
            for (int i = 0; i < n; i++) {
                sum += after[i] - before[i];
            }
            double mean = sum / n;
            double ss = 0;
            for (int i = 0; i < n; i++) {
                double d = after[i] - before[i] - mean;
                ss += d * d;
            }
            double se = n < 2 ? 0 : Math.sqrt(ss / (n - 1) / n);
            return new double[] {pct(mean), pct(2 * se)};
        }
    }

    /** One scoring pass: the result, and each query's nDCG@10 and R@5 (0-1) in query order. */
    private record Scored(Result result, double[] ndcg10, double[] recall5) {}

    private static final ObjectMapper LINES = new ObjectMapper();

    /**
     * The engine to open for a run, and the dataset it reads.
     *
     * @param dataDir the isolated data directory of this dataset and model
     * @param tools exactly the dataset's tools, for the engine's catalog
     * @param selector the selector configuration of the chosen retriever
     */
    public record Plan(
            Path dataDir,
            List<ToolSpec> tools,
            String modelId,
            SelectorConfig selector,
            String qrels,
            List<ScoredQuery> queries,
            NormalizedDataset dataset,
            List<LearnedPair> learn) {
        public Plan(
                Path dataDir,
                List<ToolSpec> tools,
                String modelId,
                SelectorConfig selector,
                String qrels,
                List<ScoredQuery> queries,
                NormalizedDataset dataset) {
            this(dataDir, tools, modelId, selector, qrels, queries, dataset, List.of());
        }

        public Plan {
            learn = List.copyOf(learn);
            Objects.requireNonNull(dataDir, "dataDir");
            tools = List.copyOf(tools);
            Objects.requireNonNull(modelId, "modelId");
            Objects.requireNonNull(selector, "selector");
            queries = List.copyOf(queries);
            Objects.requireNonNull(dataset, "dataset");
        }
    }

    /**
     * The product's engine opened as a {@link Plan} says, as the runner ranks and measures with it: the parts
     * exactly as the product built them. The caller owns the engine and closes it after {@link #run}.
     */
    public record Product(
            Catalog catalog,
            Selector selector,
            ToolIndex index,
            AccessControl access,
            TokenCounter tokens,
            UsageMemory learned) {
        /** A product whose selector learns nothing. */
        public Product(Catalog catalog, Selector selector, ToolIndex index, AccessControl access, TokenCounter tokens) {
            this(catalog, selector, index, access, tokens, null);
        }

        public Product {
            Objects.requireNonNull(catalog, "catalog");
            Objects.requireNonNull(selector, "selector");
            Objects.requireNonNull(index, "index");
            Objects.requireNonNull(access, "access");
            Objects.requireNonNull(tokens, "tokens");
        }
    }

    private final Options o;
    private final PrintWriter log;

    public EvalRunner(Options o, PrintWriter log) {
        this.o = Objects.requireNonNull(o, "o");
        this.log = Objects.requireNonNull(log, "log");
    }

    /**
     * Reads the dataset and checks the options (before any tool is embedded, which can take minutes).
     *
     * @throws IllegalArgumentException naming the option and the bad value
     */
    public Plan plan() throws IOException {
        Path dir = Files.isDirectory(o.dataset().resolve("normalized"))
                ? o.dataset().resolve("normalized")
                : o.dataset();
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--dataset " + o.dataset() + ": not a folder");
        }
        if (o.perQuery() != null) { // checked before the tools are embedded, which can take minutes
            Path parent = o.perQuery().toAbsolutePath().getParent();
            if (Files.isDirectory(o.perQuery()) || parent == null || !Files.isDirectory(parent)) {
                throw new IllegalArgumentException(
                        "--per-query " + o.perQuery() + ": must be a file in an existing folder");
            }
            if (!Files.isWritable(parent) || (Files.exists(o.perQuery()) && !Files.isWritable(o.perQuery()))) {
                throw new IllegalArgumentException("--per-query " + o.perQuery() + ": cannot be written");
            }
        }
        NormalizedDataset ds = NormalizedDataset.read(dir);
        String qrelsName = qrelsFile(ds, dir);
        List<ScoredQuery> queries = ds.scoredQueries(qrelsName);
        if (o.limit() != null && o.limit() < queries.size()) {
            queries = queries.subList(0, o.limit());
        }
        List<ToolSpec> specs = ds.tools().stream().map(DatasetTool::spec).toList();
        List<LearnedPair> learn = List.of();
        if (o.learnQrels() != null) {
            String learnName = qrelsPath(o.learnQrels(), "--learn-qrels");
            List<ScoredQuery> train = ds.scoredQueries(learnName);
            Set<String> scored = new java.util.HashSet<>();
            ds.scoredQueries(qrelsName).forEach(q -> scored.add(q.id()));
            List<String> both =
                    train.stream().map(ScoredQuery::id).filter(scored::contains).toList();
            if (!both.isEmpty()) {
                throw new IllegalArgumentException(
                        "--learn-qrels " + o.learnQrels() + " and --qrels " + qrelsName + " share " + both.size()
                                + " query ids (a query learned must not be scored), e.g. '" + both.get(0) + "'");
            }
            Map<String, String> nameOfId = new HashMap<>();
            ds.tools().forEach(t -> nameOfId.put(t.id(), t.spec().fullName()));
            List<LearnedPair> pairs = new ArrayList<>(train.size());
            for (ScoredQuery q : train) {
                // a learned message is capped lower than a request's; what the ranking reads of a longer one is what
                // a selection would learn from it, so one long query never aborts the run
                String text =
                        q.text().length() > InputLimits.MAX_MESSAGE_CHARS ? Shortened.rankedPart(q.text()) : q.text();
                pairs.add(new LearnedPair(
                        text, q.gold().stream().map(nameOfId::get).toList(), null, null, null));
            }
            learn = pairs;
        }
        Fusion fusion = o.retriever().method == null ? Fusion.DEFAULT : Fusion.DEFAULT.withMethod(o.retriever().method);
        if (o.retriever() == Retriever.whole) {
            fusion = fusion.withClausePenalty(Double.POSITIVE_INFINITY);
        }
        // the baselines stand for a retriever alone: no dependency expansion, which is the product's
        SelectorConfig config = new SelectorConfig(List.of(), 0, fusion, 10, o.retriever().method == null);
        return new Plan(
                dataDir(o.workDir(), dir, o.modelId()), specs, o.modelId(), config, qrelsName, queries, ds, learn);
    }

    /**
     * Runs the plan's queries through {@code e}, the engine opened as {@code plan} says. The data directory is
     * evaluation's own: what it learned before is reset first, so a run scores the ranking without learning; with
     * pairs to learn it then learns them and scores the same queries again, and the result carries both.
     */
    public Result run(Plan plan, Product e) throws IOException {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(e, "product");
        if (e.learned() != null) {
            e.learned().reset();
        }
        if (plan.learn().isEmpty()) {
            return score(plan, e, o.perQuery()).result();
        }
        if (e.learned() == null) {
            throw new IllegalArgumentException("--learn-qrels: this engine learns nothing");
        }
        Scored before = score(plan, e, null);
        UsageMemory.Learned l = e.learned().learn(plan.learn(), e.catalog().snapshot());
        log.println("eval: learned " + l.stored() + " (message, tool) pairs from " + l.pairs() + " queries of "
                + o.learnQrels());
        log.flush();
        Scored after = score(plan, e, o.perQuery());
        e.learned().reset();
        return after.result()
                .withBaseline(
                        before.result(), Gain.of(before.ndcg10(), after.ndcg10(), before.recall5(), after.recall5()));
    }

    private Scored score(Plan plan, Product e, Path perQueryFile) throws IOException {
        List<ToolSpec> specs = plan.tools();
        List<ScoredQuery> queries = plan.queries();
        SelectorConfig config = plan.selector();
        Path data = plan.dataDir();
        Map<String, String> idOf = new HashMap<>();
        Map<String, String> nameOf = new HashMap<>();
        for (DatasetTool t : plan.dataset().tools()) {
            idOf.put(t.spec().fullName(), t.id());
            nameOf.put(t.id(), t.displayName());
        }
        log.println("eval: " + specs.size() + " tools, " + queries.size() + " scored queries (" + plan.qrels()
                + "), data in " + data);
        List<String> unreadable = plan.dataset().unreadableSchemas();
        if (!unreadable.isEmpty()) {
            log.println("eval: warning: " + unreadable.size() + (unreadable.size() == 1 ? " tool has" : " tools have")
                    + " a parameter schema that could not be read; scored with name and description only:");
            unreadable.stream().limit(10).forEach(w -> log.println("  " + w));
            if (unreadable.size() > 10) {
                log.println("  ... and " + (unreadable.size() - 10) + " more");
            }
        }
        log.flush();
        Map<Integer, double[]> recall = new LinkedHashMap<>();
        Map<Integer, double[]> complete = new LinkedHashMap<>();
        for (int k : o.ks()) {
            recall.put(k, new double[1]);
            complete.put(k, new double[1]);
        }
        double ndcg = 0;
        double[] ndcgOf = new double[queries.size()];
        double[] recall5Of = new double[queries.size()];
        double mrr = 0;
        double[] latency = new double[queries.size()];
        long allTokens = 0;
        for (ToolSpec s : specs) {
            allTokens += e.tokens().definitionTokens(s);
        }
        double top10Tokens = 0;
        int qi = 0;
        int shortened = 0;
        // LangChain4j's strategy is an external baseline: it gets the model's plain query vectors, not the
        // product's query adapter (its document vectors are the same either way)
        VectorToolSearch lc4j = o.retriever() == Retriever.langchain4j
                ? VectorToolSearch.open(LocalEmbeddingModels.createPlain(plan.modelId()), specs, data)
                : null;
        // dense-plain: the product's selector, index and tool vectors with the model's own query vector (no adapter),
        // through a ranker (and its threads) of its own, closed at the end of the run
        boolean plainQueries = o.retriever() == Retriever.densePlain || o.retriever() == Retriever.hybridPlain;
        HybridRanker plainRanker = plainQueries ? new HybridRanker(e.index()) : null;
        Selector selector = plainRanker != null
                ? new Selector(
                        e.catalog(),
                        plainRanker,
                        LocalEmbeddingModels.createPlain(plan.modelId()),
                        e.access(),
                        e.tokens(),
                        config)
                : e.selector();
        Map<String, ToolSpec> specOf = new HashMap<>();
        specs.forEach(s -> specOf.put(s.fullName(), s));
        // written to a file beside it and moved into place at the end: a failed run leaves an existing file as it was
        Path perQueryPart =
                perQueryFile == null ? null : perQueryFile.resolveSibling(perQueryFile.getFileName() + ".part");
        // a null resource is allowed: nothing to close
        try (BufferedWriter perQuery =
                perQueryPart == null ? null : Files.newBufferedWriter(perQueryPart, StandardCharsets.UTF_8)) {
            for (ScoredQuery q : queries) {
                // a query longer than the ranking reads is ranked on its first part, as a request's message is; one
                // past even a request's cap is handed over as that part (the same ranking), so no query aborts the run
                String text = q.text();
                if (Shortened.of(text) != null) {
                    shortened++;
                    if (text.length() > InputLimits.MAX_REQUEST_MESSAGE_CHARS) {
                        text = Shortened.rankedPart(text);
                    }
                }
                long t0 = System.nanoTime();
                List<String> names;
                if (lc4j != null) {
                    names = lc4j.search(text, DEPTH);
                } else {
                    Selection sel = selector.select(new Selector.Request(text, Principal.ANONYMOUS, DEPTH, null));
                    names = sel.selected().stream()
                            .map(Selection.SelectedTool::name)
                            .toList();
                }
                latency[qi++] = (System.nanoTime() - t0) / 1e6;
                List<String> ranked = new ArrayList<>(names.size());
                names.forEach(nm -> ranked.add(idOf.get(nm)));
                List<ToolSpec> top10 = names.subList(0, Math.min(10, names.size())).stream()
                        .map(specOf::get)
                        .toList();
                top10Tokens += e.tokens().definitionTokens(top10);
                List<String> r = ranked;
                Set<String> gold = q.gold();
                List<Set<String>> steps = q.steps();
                if (o.byName()) {
                    r = collapse(ranked, nameOf);
                    gold = new LinkedHashSet<>(collapse(new ArrayList<>(gold), nameOf));
                    steps = collapseSteps(steps, nameOf);
                }
                for (int k : o.ks()) {
                    recall.get(k)[0] += Metrics.stepRecallAt(k, r, steps);
                    complete.get(k)[0] += Metrics.stepCompleteAt(k, r, steps);
                }
                double qn = Metrics.stepNdcgAt(10, r, steps);
                ndcg += qn;
                ndcgOf[qi - 1] = qn;
                recall5Of[qi - 1] = Metrics.stepRecallAt(5, r, steps);
                for (int i = 0; i < r.size(); i++) {
                    if (gold.contains(r.get(i))) {
                        mrr += 1.0 / (i + 1);
                        break;
                    }
                }
                if (perQuery != null) {
                    writeOutcome(perQuery, q, gold, q.anyOf() ? steps : null, r, qn);
                }
            }
        } catch (IOException | RuntimeException ex) {
            if (perQueryPart != null) {
                Files.deleteIfExists(perQueryPart);
            }
            throw ex;
        } finally {
            if (plainRanker != null) {
                plainRanker.close();
            }
        }
        if (perQueryPart != null) {
            Files.move(perQueryPart, perQueryFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        if (shortened > 0) {
            log.println(String.format(
                    java.util.Locale.ROOT,
                    "eval: shortened %d of %d queries: longer than the ranking reads (%,d characters), each was ranked"
                            + " on its first part",
                    shortened,
                    queries.size(),
                    Selector.MAX_MESSAGE_CHARS));
            log.flush();
        }
        int n = Math.max(1, queries.size());
        Map<Integer, Double> rec = new LinkedHashMap<>();
        Map<Integer, Double> com = new LinkedHashMap<>();
        recall.forEach((k, v) -> rec.put(k, pct(v[0] / n)));
        complete.forEach((k, v) -> com.put(k, pct(v[0] / n)));
        double saved = allTokens == 0 ? 0 : 100.0 * (1 - (top10Tokens / n) / allTokens);
        Result result = new Result(
                o.dataset().toString(),
                plan.qrels(),
                o.retriever().cliName(),
                queries.size(),
                rec,
                com,
                pct(ndcg / n),
                pct(mrr / n),
                Math.round(saved * 10) / 10.0,
                at(latency, 50),
                at(latency, 99),
                shortened);
        return new Scored(result, ndcgOf, recall5Of);
    }

    /**
     * One line of the per-query file: {@code {"id","text","gold":[..],"top10":[..],"gold_ranks":{id: rank or
     * null},"ndcg@10"}} (and {@code "steps":[[..],..]} after the gold when a step has equivalent tools): ranks 1-based in the ranked list (at most {@value #DEPTH} long; null when the tool is not
     * in it, whether beyond {@value #DEPTH} or never matched), nDCG@10 in percent with two decimals.
     */
    private static void writeOutcome(
            BufferedWriter w,
            ScoredQuery q,
            Set<String> gold,
            List<Set<String>> steps,
            List<String> ranked,
            double ndcg)
            throws IOException {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("id", q.id());
        n.put("text", q.text());
        ArrayNode g = n.putArray("gold");
        gold.forEach(g::add);
        if (steps != null) {
            ArrayNode st = n.putArray("steps");
            steps.forEach(step -> {
                ArrayNode one = st.addArray();
                step.forEach(one::add);
            });
        }
        ArrayNode top = n.putArray("top10");
        ranked.subList(0, Math.min(10, ranked.size())).forEach(top::add);
        ObjectNode ranks = n.putObject("gold_ranks");
        for (String id : gold) {
            int i = ranked.indexOf(id);
            if (i < 0) {
                ranks.putNull(id);
            } else {
                ranks.put(id, i + 1);
            }
        }
        n.put("ndcg@10", Math.round(ndcg * 10000) / 100.0);
        w.write(LINES.writeValueAsString(n));
        w.newLine();
    }

    /** The isolated data directory of one dataset folder and model under {@code workDir}. */
    static Path dataDir(Path workDir, Path normalizedDir, String modelId) {
        return workDir.resolve(Hashing.sha256Hex(normalizedDir.toAbsolutePath().normalize() + "\n" + modelId)
                .substring(0, 16));
    }

    private String qrelsFile(NormalizedDataset ds, Path dir) {
        if (o.qrels() != null) {
            return qrelsPath(o.qrels(), "--qrels");
        }
        List<String> files = ds.qrelsFiles();
        if (files.size() == 1) {
            return files.get(0);
        }
        if (files.contains("qrels.test.tsv")) {
            return "qrels.test.tsv";
        }
        throw new IllegalArgumentException("--dataset " + o.dataset() + " has " + files.size()
                + " qrels files; choose one with --qrels: " + files);
    }

    /**
     * A qrels option's file: a name in the dataset's folder, or a path to a file anywhere (a split of the dataset's
     * qrels written elsewhere, {@code scripts/split-qrels.py}), as an absolute path.
     */
    private static String qrelsPath(String value, String option) {
        Path p = Path.of(value);
        if (p.isAbsolute() || Files.exists(p)) {
            if (!Files.isRegularFile(p)) {
                throw new IllegalArgumentException(option + " " + value + ": file not found");
            }
            return p.toAbsolutePath().normalize().toString();
        }
        return value;
    }

    /** Ids to names, keeping the first occurrence of each name. */
    static List<String> collapse(List<String> ids, Map<String, String> nameOf) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String id : ids) {
            out.add(nameOf.getOrDefault(id, id));
        }
        return new ArrayList<>(out);
    }

    /** Each step's tools collapsed to names; steps that become equal are one step. */
    static List<Set<String>> collapseSteps(List<Set<String>> steps, Map<String, String> nameOf) {
        LinkedHashSet<Set<String>> out = new LinkedHashSet<>();
        for (Set<String> step : steps) {
            out.add(new LinkedHashSet<>(collapse(new ArrayList<>(step), nameOf)));
        }
        return new ArrayList<>(out);
    }

    private static double pct(double v) {
        return Math.round(v * 1000) / 10.0;
    }

    private static double at(double[] values, int p) {
        return Math.round(Metrics.percentile(values, p) * 100) / 100.0;
    }
}
