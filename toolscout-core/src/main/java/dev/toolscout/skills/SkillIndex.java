package dev.toolscout.skills;

import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.embedding.VectorStore;
import dev.toolscout.indexing.CachedEmbeddings;
import dev.toolscout.indexing.Indexer;
import dev.toolscout.indexing.ToolText;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Searches the skills by a message: BM25 over each skill's name and description, and the cosine of their
 * embedding to the message's, fused by reciprocal rank. Skills are few ({@value Skills#MAX_SKILLS} at most), so
 * both lists are computed exactly over the visible skills, with no index structure; access is applied first, by
 * the caller's predicate, so an invisible skill never affects a rank, a score or a count.
 *
 * <p>Kept current by {@link SkillEvent}s as the tool index is by catalog events: a skill's text is embedded once
 * and the vector stored by text hash and model id (beside the tools' vectors), so a restart embeds nothing.
 *
 * <p>Reciprocal rank fusion (k 60) rather than the tools' z-score fusion: with a handful of documents, a list's
 * mean and deviation say little, while ranks stay meaningful.
 *
 * <p>Thread-safety: searches read an immutable snapshot; {@link #rebuild} and {@link #onEvents} are serialized.
 */
public final class SkillIndex implements Indexer {
    private static final int RRF_K = 60;
    private static final double BM25_K1 = 1.2;
    private static final double BM25_B = 0.75;
    private static final Set<String> STOP = Set.of(
            "the", "and", "for", "with", "that", "this", "from", "into", "please", "can", "you", "want", "need",
            "would", "like", "some", "about", "what", "when", "where", "which", "who", "how", "are", "was", "will",
            "have", "has", "had", "not", "but", "all", "any", "our", "your", "its", "let", "get", "use", "tools",
            "tool", "skill", "skills");

    private final CachedEmbeddings embeddings;
    private volatile Map<String, Entry> entries = Map.of();
    private volatile long applied;

    public SkillIndex(VectorStore store, EmbeddingModel model) {
        this.embeddings = new CachedEmbeddings(store, model);
    }

    @Override
    public String name() {
        return "indexer.skills";
    }

    @Override
    public List<String> events() {
        return List.of("skill.created", "skill.updated", "skill.deleted");
    }

    @Override
    public List<String> managedTypes() {
        return List.of("skill_index");
    }

    /**
     * Always current: a skill change is one text and skills are few ({@value Skills#MAX_SKILLS} at most), so it is
     * indexed on the writer's thread before the write returns, unlike the tools, which go through a queue.
     */
    @Override
    public Status status() {
        return new Status(0, applied, applied, null);
    }

    /** One indexed skill: its vector and its words (5-letter stems), each counted. */
    private record Entry(Skill skill, float[] vector, Map<String, Integer> stems, int length) {}

    /**
     * A skill that matched a message.
     *
     * @param score the fused reciprocal-rank score, 0-1 (1: first in both lists)
     * @param lexicalRank 1-based rank by BM25 among the visible skills, or 0 when no word matched
     * @param denseRank 1-based rank by cosine among the visible skills
     * @param similarity the cosine of the skill's vector to the message's
     * @param matchedWords the message's words found in the skill's name or description, at most three
     */
    public record Match(
            Skill skill, double score, int lexicalRank, int denseRank, double similarity, List<String> matchedWords) {
        public Match {
            matchedWords = List.copyOf(matchedWords);
        }

        /**
         * Whether the skill clearly matches: first by words and first by meaning among the visible skills. Two
         * independent rankings agreeing needs no score threshold, which would have to be calibrated per model.
         */
        public boolean clear() {
            return lexicalRank == 1 && denseRank == 1;
        }
    }

    /** The text a skill is embedded by: its name as words, then its description. */
    static String embeddingText(Skill s) {
        return ToolText.splitIdentifier(s.name()) + ". " + s.description();
    }

    /** Indexes exactly {@code skills}, embedding only those whose text has no stored vector for this model. */
    public synchronized void rebuild(Collection<Skill> skills) {
        Map<String, Entry> next = new TreeMap<>();
        for (Entry e : entries(skills)) {
            next.put(e.skill().name(), e);
        }
        entries = java.util.Collections.unmodifiableMap(next);
        applied++;
    }

    /** Applies skill changes (subscribe this to the event bus). */
    public synchronized void onEvents(List<SkillEvent> batch) {
        Map<String, Entry> next = new TreeMap<>(entries);
        List<Skill> upserts = new ArrayList<>();
        for (SkillEvent e : batch) {
            switch (e) {
                case SkillEvent.Created c -> upserts.add(c.skill());
                case SkillEvent.Updated u -> upserts.add(u.after());
                case SkillEvent.Deleted d -> next.remove(d.name());
            }
        }
        for (Entry e : entries(upserts)) {
            next.put(e.skill().name(), e);
        }
        entries = java.util.Collections.unmodifiableMap(next);
        applied++;
    }

    /** How many skills are indexed. */
    public int size() {
        return entries.size();
    }

    private List<Entry> entries(Collection<Skill> skills) {
        Map<String, String> hashOf = new HashMap<>();
        List<String> texts = new ArrayList<>();
        for (Skill s : skills) {
            String text = embeddingText(s);
            texts.add(text);
            hashOf.put(s.name(), CachedEmbeddings.hash(text));
        }
        Map<String, float[]> vectors = embeddings.vectors(texts, n -> {});
        List<Entry> out = new ArrayList<>(skills.size());
        for (Skill s : skills) {
            Map<String, Integer> stems = new HashMap<>();
            List<String> words = new ArrayList<>();
            // the name counts twice: it is the skill's shortest summary
            words.addAll(words(ToolText.splitIdentifier(s.name())));
            words.addAll(words(ToolText.splitIdentifier(s.name())));
            words.addAll(words(s.description()));
            words.forEach(w -> stems.merge(stem(w), 1, Integer::sum));
            out.add(new Entry(s, vectors.get(hashOf.get(s.name())), stems, words.size()));
        }
        return out;
    }

    /**
     * Ranks the visible skills for {@code message}: every visible skill, best first (ties by name).
     *
     * @param vector the message's vector, asked for only when some skill is visible
     * @param visible which skills the caller may see (access control, applied before anything is ranked)
     */
    public List<Match> rank(String message, Supplier<float[]> vector, Predicate<Skill> visible) {
        List<Entry> seen = new ArrayList<>();
        for (Entry e : entries.values()) {
            if (visible.test(e.skill())) {
                seen.add(e);
            }
        }
        if (seen.isEmpty()) {
            return List.of();
        }
        List<String> query = contentWords(message);
        // BM25 over the visible skills only: document frequencies of invisible ones would leak through scores
        Map<String, Integer> df = new HashMap<>();
        double avgLength = 0;
        for (Entry e : seen) {
            e.stems().keySet().forEach(s -> df.merge(s, 1, Integer::sum));
            avgLength += e.length();
        }
        avgLength /= seen.size();
        // identity maps: an entry is one skill, and its record equality would compare whole maps
        Map<Entry, Double> bm25 = new IdentityHashMap<>();
        Map<Entry, List<String>> matched = new IdentityHashMap<>();
        for (Entry e : seen) {
            double score = 0;
            List<String> hit = new ArrayList<>();
            for (String w : query) {
                Integer tf = e.stems().get(stem(w));
                if (tf == null) {
                    continue;
                }
                int n = df.get(stem(w));
                double idf = Math.log(1 + (seen.size() - n + 0.5) / (n + 0.5));
                score += idf * tf * (BM25_K1 + 1) / (tf + BM25_K1 * (1 - BM25_B + BM25_B * e.length() / avgLength));
                if (hit.size() < 3) {
                    hit.add(w);
                }
            }
            if (score > 0) {
                bm25.put(e, score);
                matched.put(e, hit);
            }
        }
        float[] q = vector.get();
        Map<Entry, Double> cosine = new IdentityHashMap<>();
        for (Entry e : seen) {
            cosine.put(e, dot(q, e.vector()));
        }
        Comparator<Entry> byName = Comparator.comparing(e -> e.skill().name());
        List<Entry> lexical = new ArrayList<>(bm25.keySet());
        lexical.sort(Comparator.<Entry>comparingDouble(e -> -bm25.get(e)).thenComparing(byName));
        Map<Entry, Integer> lexicalRank = new IdentityHashMap<>();
        for (int i = 0; i < lexical.size(); i++) {
            lexicalRank.put(lexical.get(i), i + 1);
        }
        List<Entry> dense = new ArrayList<>(seen);
        dense.sort(Comparator.<Entry>comparingDouble(e -> -cosine.get(e)).thenComparing(byName));
        List<Match> out = new ArrayList<>(seen.size());
        for (int i = 0; i < dense.size(); i++) {
            Entry e = dense.get(i);
            int lr = lexicalRank.getOrDefault(e, 0);
            double rrf = 1.0 / (RRF_K + i + 1) + (lr > 0 ? 1.0 / (RRF_K + lr) : 0);
            double score = Math.round(rrf / (2.0 / (RRF_K + 1)) * 10_000) / 10_000.0;
            out.add(new Match(e.skill(), score, lr, i + 1, cosine.get(e), matched.getOrDefault(e, List.of())));
        }
        out.sort(Comparator.comparingDouble((Match m) -> -m.score())
                .thenComparing(m -> m.skill().name()));
        return out;
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    /** The message's words that carry meaning (stop words and words under 3 letters dropped), once each. */
    static List<String> contentWords(String message) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String w : words(message)) {
            if (w.length() > 2 && !STOP.contains(w)) {
                out.add(w);
            }
        }
        return List.copyOf(out);
    }

    private static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    /** The first five letters: 'features' and 'feature' meet, as in the selector's reasons. */
    private static String stem(String w) {
        return w.length() > 5 ? w.substring(0, 5) : w;
    }
}
