package dev.toolscout.indexing;

import dev.toolscout.access.AllowedSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A brute-force {@link ToolIndex} for fast tests: exact dot products over every allowed document, and a
 * plain BM25 (k1 1.2, b 0.75) over the four text fields concatenated, lower-cased and split into words (no
 * stemming, no stop words, no field weights). Writes go to a pending map; {@link #commit(long)} (or {@link #refresh()}) publishes
 * an immutable snapshot that searches read, so searches are thread-safe against one writer.
 */
public final class ExactToolIndex implements ToolIndex {
    private static final float K1 = 1.2f;
    private static final float B = 0.75f;

    private final int dimension;
    private final Map<String, ToolDocument> pending = new LinkedHashMap<>();
    private volatile Snapshot snapshot = Snapshot.of(List.of());
    private volatile long committedVersion = -1;

    public ExactToolIndex(int dimension) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, got: " + dimension);
        }
        this.dimension = dimension;
    }

    @Override
    public synchronized void upsert(Collection<ToolDocument> docs) {
        for (ToolDocument doc : docs) {
            if (doc.ord() < 0) {
                throw new IllegalArgumentException(
                        "ord must be >= 0, got: " + doc.ord() + " (tool '" + doc.name() + "')");
            }
            if (doc.vector().length != dimension) {
                throw new IllegalArgumentException("vector of tool '"
                        + doc.name()
                        + "' has dimension "
                        + doc.vector().length
                        + ", the index expects "
                        + dimension);
            }
        }
        for (ToolDocument doc : docs) {
            pending.put(doc.name(), doc);
        }
    }

    @Override
    public synchronized void remove(Collection<String> toolNames) {
        for (String name : toolNames) {
            pending.remove(name);
        }
    }

    @Override
    public synchronized void clear() {
        pending.clear();
    }

    @Override
    public synchronized void commit(long catalogVersion) {
        if (catalogVersion < 0) {
            throw new IllegalArgumentException("catalogVersion must be >= 0, got: " + catalogVersion);
        }
        snapshot = Snapshot.of(List.copyOf(pending.values()));
        committedVersion = catalogVersion;
    }

    @Override
    public synchronized void refresh() {
        snapshot = Snapshot.of(List.copyOf(pending.values()));
    }

    @Override
    public Map<String, Integer> ordinals() {
        Map<String, Integer> out = new HashMap<>();
        for (Indexed d : snapshot.docs()) {
            out.put(d.doc().name(), d.doc().ord());
        }
        return out;
    }

    @Override
    public long committedVersion() {
        return committedVersion;
    }

    @Override
    public int size() {
        return snapshot.docs.size();
    }

    @Override
    public List<Hit> lexical(String query, AllowedSet allowed, int limit) {
        Objects.requireNonNull(query, "query");
        checkLimit(limit);
        Snapshot s = snapshot;
        Set<String> terms = new LinkedHashSet<>(words(query));
        List<Hit> hits = new ArrayList<>();
        if (terms.isEmpty() || allowed.isEmpty()) {
            return hits;
        }
        int n = s.docs.size();
        for (Indexed d : s.docs) {
            if (!allowed.contains(d.doc.ord())) {
                continue;
            }
            float score = 0;
            for (String t : terms) {
                Integer tf = d.termFreqs.get(t);
                if (tf == null) {
                    continue;
                }
                int df = s.docFreqs.get(t);
                double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
                double norm = K1 * (1 - B + B * d.length / s.averageLength);
                score += (float) (idf * tf / (tf + norm));
            }
            if (score > 0) {
                hits.add(new Hit(d.doc.ord(), score));
            }
        }
        return best(hits, limit);
    }

    @Override
    public List<Hit> dense(float[] queryVector, AllowedSet allowed, int limit) {
        if (queryVector.length != dimension) {
            throw new IllegalArgumentException(
                    "query vector has dimension " + queryVector.length + ", the index expects " + dimension);
        }
        checkLimit(limit);
        List<Hit> hits = new ArrayList<>();
        for (Indexed d : snapshot.docs) {
            if (allowed.contains(d.doc.ord())) {
                float dot = 0;
                float[] v = d.doc.vector();
                for (int i = 0; i < v.length; i++) {
                    dot += v[i] * queryVector[i];
                }
                hits.add(new Hit(d.doc.ord(), dot));
            }
        }
        return best(hits, limit);
    }

    @Override
    public void close() {}

    private static List<Hit> best(List<Hit> hits, int limit) {
        hits.sort(Hit.BEST_FIRST);
        return hits.size() > limit ? new ArrayList<>(hits.subList(0, limit)) : hits;
    }

    private static void checkLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, got: " + limit);
        }
    }

    /** Lower-cased words: runs of letters and digits. */
    static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    private record Indexed(ToolDocument doc, Map<String, Integer> termFreqs, int length) {
        static Indexed of(ToolDocument doc) {
            List<String> words = new ArrayList<>();
            words.addAll(words(doc.nameWords()));
            words.addAll(words(doc.description()));
            words.addAll(words(doc.parameterText()));
            words.addAll(words(doc.labels()));
            Map<String, Integer> tf = new HashMap<>();
            for (String w : words) {
                tf.merge(w, 1, Integer::sum);
            }
            return new Indexed(doc, tf, words.size());
        }
    }

    private record Snapshot(List<Indexed> docs, Map<String, Integer> docFreqs, double averageLength) {
        static Snapshot of(List<ToolDocument> docs) {
            List<Indexed> indexed = new ArrayList<>(docs.size());
            Map<String, Integer> df = new HashMap<>();
            long total = 0;
            for (ToolDocument doc : docs) {
                Indexed d = Indexed.of(doc);
                indexed.add(d);
                total += d.length;
                for (String t : d.termFreqs.keySet()) {
                    df.merge(t, 1, Integer::sum);
                }
            }
            double avg = indexed.isEmpty() ? 1 : Math.max(1, (double) total / indexed.size());
            return new Snapshot(indexed, df, avg);
        }
    }
}
