package dev.toolscout.git;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embedding.VectorStore;
import dev.toolscout.indexing.CachedEmbeddings;
import dev.toolscout.indexing.SearchableIndexer;
import dev.toolscout.model.AiAccess;
import dev.toolscout.model.SideEffect;
import dev.toolscout.model.ToolSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.DiffFormatter;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.util.io.DisabledOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The git indexer (seed 003's {@code GitIndexer}): follows one repository's commits ({@code git.committed}) and
 * makes what changed searchable by meaning, for "what changed about X?" and "where is X described?" questions.
 *
 * <p>What is indexed, with caps (see {@link Limits}):
 *
 * <ul>
 *   <li>each commit: its id, message and the paths it changed (the last {@link Limits#maxCommits} commits of the
 *       first-parent history);
 *   <li>each text file of the current {@code HEAD} tree (at most {@link Limits#maxFiles}, each at most {@link
 *       Limits#maxFileBytes}; binary files skipped): its path and its first {@link Limits#maxTextChars} characters,
 *       replaced when a commit changes the file and dropped when one deletes it.
 * </ul>
 *
 * <p>The repository is the truth: the entries are rebuilt from it at start, and the vectors come from the state
 * store by text hash and model id ({@link CachedEmbeddings}), so a restart embeds only what changed since.
 * Commits are found by polling {@code HEAD} every {@link Limits#poll} (one small file read) on the indexer's own
 * thread, or at once through {@link #committed()} (a {@code git.committed} event, e.g. from a post-commit hook).
 * A rewritten history (HEAD no longer descends from the indexed commit) is indexed again from scratch.
 *
 * <p>It is a {@link SearchableIndexer}: the engine it is registered with ({@code ToolScout.register}) fans a
 * message's route out to it and serves {@value #TOOL}, which the access policy judges like any tool.
 *
 * <p>Thread-safety: thread-safe; searches read an immutable snapshot while the indexer thread builds the next.
 */
public final class GitIndexer implements SearchableIndexer, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GitIndexer.class);

    /** The tool that searches the repository, and the name the access policy judges every search of it by. */
    public static final String TOOL = "git__search";

    /**
     * {@value #TOOL} (source {@code git}, category {@code code}, reads only): what the policy judges, a selection
     * offers and the model calls. Its arguments are those of {@code POST /v1/git/search}.
     */
    public static final ToolSpec SPEC = ToolSpec.builder(
                    TOOL,
                    "Search the followed git repository's recent commits (message and changed paths) and the text "
                            + "files of its HEAD by meaning: what changed about something, where something is "
                            + "described.")
            .category("code")
            .aiAccess(AiAccess.EXECUTE)
            .sideEffect(SideEffect.READ)
            .parameters(parameters())
            .build();

    private static ObjectNode parameters() {
        ObjectNode p = JsonNodeFactory.instance.objectNode().put("type", "object");
        ObjectNode props = p.putObject("properties");
        props.putObject("query")
                .put("type", "string")
                .put("minLength", 1)
                .put("maxLength", MAX_QUERY_CHARS)
                .put("description", "What to look for, in words");
        props.putObject("limit")
                .put("type", "integer")
                .put("minimum", 1)
                .put("maximum", MAX_LIMIT)
                .put("description", "How many entries (default " + DEFAULT_LIMIT + ")");
        p.putArray("required").add("query");
        p.put("additionalProperties", false);
        return p;
    }

    /** The longest query a search takes, in characters. */
    public static final int MAX_QUERY_CHARS = 2_000;

    /** The most entries a search returns. */
    public static final int MAX_LIMIT = 50;

    /** The entries a search returns when it names no limit. */
    public static final int DEFAULT_LIMIT = 5;

    /**
     * Caps on what is indexed.
     *
     * @param maxCommits commits kept searchable, newest first (default 500)
     * @param maxFiles files indexed, those of the first HEAD tree read and those later commits add (default 5,000;
     *     past it the rest are skipped, logged once)
     * @param maxFileBytes a larger file is skipped (default 256 KiB)
     * @param maxTextChars characters of a file or a commit message embedded and shown (default 2,000)
     * @param poll how often HEAD is checked (default 2 s, at least 100 ms)
     */
    public record Limits(int maxCommits, int maxFiles, int maxFileBytes, int maxTextChars, Duration poll) {
        public static final Limits DEFAULT = new Limits(500, 5_000, 256 * 1024, 2_000, Duration.ofSeconds(2));

        public Limits {
            check("maxCommits", maxCommits, 1, 100_000);
            check("maxFiles", maxFiles, 1, 1_000_000);
            check("maxFileBytes", maxFileBytes, 1, 64 * 1024 * 1024);
            check("maxTextChars", maxTextChars, 16, 100_000);
            if (poll == null || poll.compareTo(Duration.ofMillis(100)) < 0) {
                throw new IllegalArgumentException("the git poll period must be at least 100ms, got: " + poll);
            }
        }

        private static void check(String name, int value, int min, int max) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(
                        "git indexer " + name + " must be between " + min + " and " + max + ", got: " + value);
            }
        }
    }

    /**
     * One search result.
     *
     * @param kind {@code commit} or {@code file}
     * @param commit the commit's id (for a file, the commit that last changed it as indexed, or HEAD's)
     * @param path the file's path, or {@code null} for a commit
     * @param title a commit's short id and subject, or a file's path
     * @param snippet the start of the indexed text, at most 300 characters
     * @param similarity the cosine of the entry's vector to the query's (not a rank)
     * @param when the commit's time
     */
    public record Hit(
            String kind, String commit, String path, String title, String snippet, double similarity, Instant when) {}

    private record Entry(
            String kind, String commit, String path, String title, String text, float[] vector, Instant when) {}

    private final Path dir;
    private final Repository repo;
    private final EmbeddingModel model;
    private final CachedEmbeddings embeddings;
    private final Limits limits;
    private final Object lock = new Object();
    private volatile Map<String, Entry> entries = Map.of();
    private volatile ObjectId indexedHead;
    private volatile long indexedCommits;
    private volatile String lastError;
    private volatile boolean pending;
    private boolean closed;
    private Thread worker;

    private GitIndexer(Path dir, Repository repo, VectorStore store, EmbeddingModel model, Limits limits) {
        this.dir = dir;
        this.repo = repo;
        this.model = model;
        this.embeddings = new CachedEmbeddings(store, model);
        this.limits = limits;
    }

    /**
     * Opens the repository at {@code dir} (its work tree or its {@code .git} directory) and indexes its HEAD, before
     * returning; {@link #start} then follows it.
     *
     * @throws IllegalArgumentException when {@code dir} holds no git repository
     */
    public static GitIndexer open(Path dir, VectorStore store, EmbeddingModel model, Limits limits) throws IOException {
        Path abs = dir.toAbsolutePath().normalize();
        Repository repo = repository(dir).setMustExist(true).build();
        GitIndexer g = new GitIndexer(abs, repo, store, model, limits);
        g.refresh();
        return g;
    }

    /**
     * Checks that {@code dir} holds a git repository (its work tree or its {@code .git} directory, at or below the
     * repository's top), reading nothing of it: what {@code policy check --git-repo} asks before it counts {@value
     * #TOOL} as known.
     *
     * @throws IllegalArgumentException when it holds none
     */
    public static void checkRepository(Path dir) {
        repository(dir);
    }

    private static FileRepositoryBuilder repository(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        if (!Files.isDirectory(abs)) {
            throw new IllegalArgumentException("--git-repo " + dir + ": no such directory");
        }
        FileRepositoryBuilder b = new FileRepositoryBuilder().readEnvironment().findGitDir(abs.toFile());
        if (b.getGitDir() == null) {
            throw new IllegalArgumentException(
                    "--git-repo " + dir + ": not a git repository (no .git found at or above it)");
        }
        return b;
    }

    @Override
    public String name() {
        return "indexer.git";
    }

    @Override
    public List<String> events() {
        return List.of("git.committed");
    }

    @Override
    public List<String> managedTypes() {
        return List.of("git_change");
    }

    /** The repository followed. */
    public Path repository() {
        return dir;
    }

    /** How many texts were embedded since this was made (a restart on an indexed repository embeds none). */
    public long embeddedCount() {
        return embeddings.embeddedCount();
    }

    /** How many entries are searchable. */
    public int size() {
        return entries.size();
    }

    /** The commit HEAD was at when last indexed, or {@code null} for an empty repository. */
    public String indexedHead() {
        ObjectId h = indexedHead;
        return h == null ? null : h.name();
    }

    @Override
    public Status status() {
        return new Status(pending ? 1 : 0, indexedCommits, indexedCommits + (pending ? 1 : 0), lastError);
    }

    /** Follows the repository: checks HEAD every poll period on the indexer's own thread. */
    public GitIndexer start() {
        synchronized (lock) {
            if (worker == null) {
                worker = Thread.ofPlatform()
                        .daemon()
                        .name("toolscout-git-indexer")
                        .start(this::follow);
            }
        }
        return this;
    }

    /** A {@code git.committed} event: the indexer thread looks at HEAD now rather than at the next poll. */
    public void committed() {
        synchronized (lock) {
            pending = true;
            lock.notifyAll();
        }
    }

    private void follow() {
        while (true) {
            synchronized (lock) {
                if (closed) {
                    return;
                }
                if (!pending) {
                    try {
                        lock.wait(limits.poll().toMillis());
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
            }
            try {
                refresh();
            } catch (IOException | RuntimeException e) {
                lastError = e.getClass().getSimpleName() + ": " + e.getMessage();
                LOG.warn("git indexer for {}: {}", dir, lastError);
                // a failed refresh leaves pending set: retry at the next poll (or commit), not at once in a busy loop
                synchronized (lock) {
                    pending = false;
                }
            }
        }
    }

    /**
     * Indexes the commits since the last indexed one, on the calling thread (the indexer thread calls it every poll
     * period). Returns once they are searchable.
     *
     * @return how many new commits were indexed
     */
    public synchronized int refresh() throws IOException {
        ObjectId head = repo.resolve("HEAD");
        if (head == null || head.equals(indexedHead)) {
            pending = false;
            return 0;
        }
        pending = true;
        ObjectId from = indexedHead;
        Map<String, Entry> next;
        List<RevCommit> fresh = new ArrayList<>();
        try (RevWalk walk = new RevWalk(repo);
                ObjectReader reader = repo.newObjectReader()) {
            RevCommit headCommit = walk.parseCommit(head);
            boolean incremental = from != null && walk.isMergedInto(walk.parseCommit(from), headCommit);
            walk.reset();
            walk.setFirstParent(true);
            walk.markStart(walk.parseCommit(head));
            if (incremental) {
                walk.markUninteresting(walk.parseCommit(from));
            }
            boolean more = false;
            for (RevCommit c : walk) {
                if (fresh.size() >= limits.maxCommits()) {
                    more = true;
                    break;
                }
                fresh.add(c);
            }
            if (more) {
                // more new commits than are kept: applying only the newest ones' changes would miss the files only the
                // older ones changed, so the HEAD tree is read whole instead (as at the first refresh)
                incremental = false;
            }
            Collections.reverse(fresh); // oldest first, so a later commit's file content wins
            Map<String, Entry> texts = new LinkedHashMap<>();
            Map<String, Entry> base = incremental ? new TreeMap<>(entries) : new TreeMap<>();
            if (!incremental) {
                // the whole HEAD tree once, then only what each commit changes
                allFiles(reader, headCommit, texts);
            }
            // maxFiles holds for the files commits add too, not only for the first tree read
            int files = (int)
                    base.values().stream().filter(e -> e.kind().equals("file")).count();
            boolean capped = false;
            try (DiffFormatter diff = new DiffFormatter(DisabledOutputStream.INSTANCE)) {
                diff.setRepository(repo);
                diff.setDetectRenames(true);
                for (RevCommit c : fresh) {
                    RevCommit parent = c.getParentCount() == 0 ? null : walk.parseCommit(c.getParent(0));
                    List<DiffEntry> changes = diff.scan(parent == null ? null : parent.getTree(), c.getTree());
                    List<String> paths = new ArrayList<>();
                    for (DiffEntry d : changes) {
                        paths.add(d.getChangeType() == DiffEntry.ChangeType.DELETE ? d.getOldPath() : d.getNewPath());
                        if (!incremental) {
                            continue; // the HEAD tree is already read
                        }
                        if (d.getChangeType() == DiffEntry.ChangeType.DELETE
                                || d.getChangeType() == DiffEntry.ChangeType.RENAME) {
                            files -= forget(base, texts, "file:" + d.getOldPath());
                        }
                        if (d.getChangeType() != DiffEntry.ChangeType.DELETE) {
                            String key = "file:" + d.getNewPath();
                            Entry f = file(reader, d.getNewPath(), d.getNewId().toObjectId(), c);
                            if (f == null) {
                                files -= forget(base, texts, key);
                            } else if (base.containsKey(key) || texts.containsKey(key)) {
                                texts.put(key, f);
                            } else if (files < limits.maxFiles()) {
                                texts.put(key, f);
                                files++;
                            } else if (!capped) {
                                capped = true;
                                LOG.warn(
                                        "git indexer for {}: more than {} files; the files commits add past it are not indexed",
                                        dir,
                                        limits.maxFiles());
                            }
                        }
                    }
                    texts.put("commit:" + c.name(), commit(c, paths));
                }
            }
            List<String> toEmbed = new ArrayList<>();
            texts.values().forEach(e -> toEmbed.add(e.text()));
            Map<String, float[]> vectors = embeddings.vectors(toEmbed, n -> {});
            texts.forEach((k, e) -> base.put(
                    k,
                    new Entry(
                            e.kind(),
                            e.commit(),
                            e.path(),
                            e.title(),
                            e.text(),
                            vectors.get(CachedEmbeddings.hash(e.text())),
                            e.when())));
            next = capCommits(base);
        }
        entries = Collections.unmodifiableMap(next);
        indexedHead = head;
        indexedCommits += fresh.size();
        lastError = null;
        pending = false;
        LOG.info(
                "git indexer for {}: {} new commits indexed, HEAD {}",
                dir,
                fresh.size(),
                head.abbreviate(8).name());
        return fresh.size();
    }

    /** Removes a file's entry from both maps; 1 when it was indexed (counted), else 0. */
    private static int forget(Map<String, Entry> base, Map<String, Entry> texts, String key) {
        boolean inBase = base.remove(key) != null;
        boolean inTexts = texts.remove(key) != null;
        return inBase || inTexts ? 1 : 0;
    }

    private Map<String, Entry> capCommits(Map<String, Entry> all) {
        List<Map.Entry<String, Entry>> commits = new ArrayList<>();
        for (Map.Entry<String, Entry> e : all.entrySet()) {
            if (e.getValue().kind().equals("commit")) {
                commits.add(e);
            }
        }
        if (commits.size() <= limits.maxCommits()) {
            return all;
        }
        commits.sort(Comparator.comparing(
                        (Map.Entry<String, Entry> e) -> e.getValue().when())
                .reversed()
                .thenComparing(Map.Entry::getKey));
        Map<String, Entry> out = new TreeMap<>(all);
        for (Map.Entry<String, Entry> old : commits.subList(limits.maxCommits(), commits.size())) {
            out.remove(old.getKey());
        }
        return out;
    }

    private void allFiles(ObjectReader reader, RevCommit head, Map<String, Entry> out) throws IOException {
        int files = 0;
        try (TreeWalk tw = new TreeWalk(reader)) {
            tw.addTree(head.getTree());
            tw.setRecursive(true);
            while (tw.next()) {
                if (files >= limits.maxFiles()) {
                    LOG.warn(
                            "git indexer for {}: more than {} files at HEAD; the rest are not indexed",
                            dir,
                            limits.maxFiles());
                    break;
                }
                Entry f = file(reader, tw.getPathString(), tw.getObjectId(0), head);
                if (f != null) {
                    out.put("file:" + f.path(), f);
                    files++;
                }
            }
        }
    }

    /** A text file's entry, or {@code null} for a binary, too large or unreadable one (a submodule, say). */
    private Entry file(ObjectReader reader, String path, ObjectId blob, RevCommit commit) throws IOException {
        if (!reader.has(blob)) {
            return null;
        }
        ObjectLoader loader = reader.open(blob);
        if (loader.getType() != org.eclipse.jgit.lib.Constants.OBJ_BLOB || loader.getSize() > limits.maxFileBytes()) {
            return null;
        }
        byte[] bytes = loader.getCachedBytes();
        if (RawText.isBinary(bytes)) {
            return null;
        }
        String content = new String(bytes, StandardCharsets.UTF_8);
        String text = cap(path + "\n" + content);
        return new Entry("file", commit.name(), path, path, text, null, when(commit));
    }

    private Entry commit(RevCommit c, List<String> paths) {
        String files = paths.size() <= 50
                ? String.join(", ", paths)
                : String.join(", ", paths.subList(0, 50)) + " and " + (paths.size() - 50) + " more";
        String text = cap(c.getFullMessage().strip() + "\nfiles: " + files);
        return new Entry(
                "commit", c.name(), null, c.abbreviate(8).name() + " " + c.getShortMessage(), text, null, when(c));
    }

    private String cap(String s) {
        return s.length() <= limits.maxTextChars() ? s : s.substring(0, limits.maxTextChars());
    }

    private static Instant when(RevCommit c) {
        return Instant.ofEpochSecond(c.getCommitTime());
    }

    @Override
    public ToolSpec tool() {
        return SPEC;
    }

    /**
     * The entries nearest to a message's document vector (the router's), best first (ties by kind and key): a commit
     * named by its short id and subject, a file by its path.
     */
    @Override
    public List<Near> nearest(float[] documentVector, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("git nearest limit must be at least 1, got: " + limit);
        }
        List<Near> out = new ArrayList<>();
        for (Hit h : nearestTo(documentVector, limit)) {
            out.add(new Near(h.kind().equals("file") ? h.path() : h.title(), h.snippet(), h.similarity()));
        }
        return out;
    }

    /**
     * {@value #TOOL}: {@code {"query", "limit"?}} as {@link #searchJson}.
     *
     * @throws IllegalArgumentException for a query or limit out of range
     */
    @Override
    public JsonNode search(JsonNode arguments) {
        JsonNode q = arguments == null ? null : arguments.get("query");
        if (q == null || !q.isTextual()) {
            throw new IllegalArgumentException(
                    "git search query must be a string of 1-" + MAX_QUERY_CHARS + " characters, got: "
                            + (q == null ? "none" : q.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
        }
        JsonNode l = arguments.get("limit");
        if (l != null && !l.isNull() && !l.canConvertToExactIntegral()) {
            throw new IllegalArgumentException(
                    "git search limit must be an integer between 1 and " + MAX_LIMIT + ", got: " + l);
        }
        return searchJson(q.asText(), l == null || l.isNull() ? DEFAULT_LIMIT : l.asInt());
    }

    /**
     * The {@code limit} best entries for {@code query} with the repository and its head, one JSON for the tool, {@code
     * POST /v1/git/search} and {@code toolscout git-search}: {@code {"repository", "head", "score", "results": [{"kind",
     * "title", "commit", "path"?, "when", "similarity", "snippet"}]}}.
     *
     * @throws IllegalArgumentException as {@link #search(String, int)}
     */
    public ObjectNode searchJson(String query, int limit) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("repository", repository().toString());
        out.put("head", indexedHead());
        out.put("score", "cosine similarity of the entry's embedding to the query's");
        ArrayNode hits = out.putArray("results");
        for (Hit h : search(query, limit)) {
            ObjectNode o = hits.addObject()
                    .put("kind", h.kind())
                    .put("title", h.title())
                    .put("commit", h.commit());
            if (h.path() != null) {
                o.put("path", h.path());
            }
            o.put("when", h.when().toString()).put("similarity", h.similarity()).put("snippet", h.snippet());
        }
        return out;
    }

    /**
     * The entries closest in meaning to {@code query}, best first (ties by kind and key).
     *
     * @param limit 1-50
     * @throws IllegalArgumentException for a blank query, one over 2,000 characters, or a limit out of range
     */
    public List<Hit> search(String query, int limit) {
        if (query == null || query.isBlank() || query.length() > MAX_QUERY_CHARS) {
            throw new IllegalArgumentException("git search query must be 1-" + MAX_QUERY_CHARS
                    + " characters and not blank, got: " + (query == null ? "null" : query.length() + " characters"));
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException(
                    "git search limit must be between 1 and " + MAX_LIMIT + ", got: " + limit);
        }
        return entries.isEmpty() ? List.of() : nearestTo(model.embedQuery(query), limit);
    }

    private List<Hit> nearestTo(float[] q, int limit) {
        Map<String, Entry> snapshot = entries;
        if (snapshot.isEmpty()) {
            return List.of();
        }
        record Scored(String key, Entry e, double s) {}
        List<Scored> scored = new ArrayList<>(snapshot.size());
        snapshot.forEach((k, e) -> scored.add(new Scored(k, e, dot(q, e.vector()))));
        scored.sort(Comparator.comparingDouble((Scored s) -> -s.s()).thenComparing(Scored::key));
        List<Hit> out = new ArrayList<>(Math.min(limit, scored.size()));
        for (Scored s : scored.subList(0, Math.min(limit, scored.size()))) {
            Entry e = s.e();
            String snippet = e.text().length() <= 300 ? e.text() : e.text().substring(0, 300);
            out.add(new Hit(
                    e.kind(),
                    e.commit(),
                    e.path(),
                    e.title(),
                    snippet,
                    Math.round(s.s() * 10_000) / 10_000.0,
                    e.when()));
        }
        return out;
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    @Override
    public void close() {
        Thread w;
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
            w = worker;
        }
        if (w != null) {
            try {
                w.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            repo.close();
        }
    }
}
