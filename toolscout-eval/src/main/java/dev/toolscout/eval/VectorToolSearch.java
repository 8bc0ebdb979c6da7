package dev.toolscout.eval;

import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.model.Hashing;
import dev.toolscout.model.ToolSpec;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The evaluation baseline that mirrors LangChain4j's {@code VectorToolSearchStrategy} (langchain4j {@code
 * dev.langchain4j.service.tool.search.vector}): each tool is embedded as {@code name + ": " + description}
 * (its {@code format(ToolSpecification)}; the name alone when the description is blank), the query is embedded
 * on its own, and tools are ranked by exact cosine in an in-memory store, no lexical search. The name is the
 * tool's action (the name an application registers, without ToolScout's {@code source__} prefix). Vectors are
 * cached in the eval data directory, keyed by the model and every text. Not thread-safe; evaluation (and
 * toolscout-bench's message bench) only.
 */
public final class VectorToolSearch {
    private final EmbeddingModel model;
    private final List<String> names;
    private final float[][] vectors;

    private VectorToolSearch(EmbeddingModel model, List<String> names, float[][] vectors) {
        this.model = model;
        this.names = names;
        this.vectors = vectors;
    }

    /** LangChain4j's tool text. */
    static String text(ToolSpec spec) {
        String name = spec.name().action();
        String d = spec.description();
        return d == null || d.isBlank() ? name : name + ": " + d;
    }

    public static VectorToolSearch open(EmbeddingModel model, List<ToolSpec> specs, Path dataDir) throws IOException {
        List<String> texts = specs.stream().map(VectorToolSearch::text).toList();
        return new VectorToolSearch(
                model, specs.stream().map(ToolSpec::fullName).toList(), vectors(model, texts, dataDir));
    }

    /**
     * Each tool's LangChain4j text ({@code name: description}, the name being the action) and its document vector,
     * read from the cache {@link #open} keeps in {@code dataDir} (embedded and written there when it is not yet):
     * for what drives LangChain4j's own strategy with the same vectors (toolscout-bench's {@code bench-frameworks}).
     */
    public static Map<String, float[]> documentVectors(EmbeddingModel model, List<ToolSpec> specs, Path dataDir)
            throws IOException {
        List<String> texts = specs.stream().map(VectorToolSearch::text).toList();
        float[][] vectors = vectors(model, texts, dataDir);
        Map<String, float[]> out = new HashMap<>();
        for (int i = 0; i < texts.size(); i++) {
            out.put(texts.get(i), vectors[i]);
        }
        return out;
    }

    private static float[][] vectors(EmbeddingModel model, List<String> texts, Path dataDir) throws IOException {
        Path cache = dataDir.resolve("langchain4j-"
                + Hashing.sha256Hex(model.modelId() + "\n" + String.join("\n", texts))
                        .substring(0, 16) + ".vec");
        float[][] vectors = new float[texts.size()][];
        if (Files.isRegularFile(cache)) {
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(cache)))) {
                for (int i = 0; i < vectors.length; i++) {
                    vectors[i] = new float[in.readInt()];
                    for (int j = 0; j < vectors[i].length; j++) {
                        vectors[i][j] = in.readFloat();
                    }
                }
            }
        } else {
            for (int from = 0; from < texts.size(); from += 64) {
                List<float[]> batch = model.embedDocuments(texts.subList(from, Math.min(texts.size(), from + 64)));
                for (int i = 0; i < batch.size(); i++) {
                    vectors[from + i] = batch.get(i);
                }
            }
            Path tmp = cache.resolveSibling(cache.getFileName() + ".tmp");
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp)))) {
                for (float[] v : vectors) {
                    out.writeInt(v.length);
                    for (float x : v) {
                        out.writeFloat(x);
                    }
                }
            }
            Files.move(tmp, cache, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return vectors;
    }

    /** The full names of the {@code limit} tools most similar to {@code query}, best first, ties by name. */
    public List<String> search(String query, int limit) {
        float[] q = model.embedQuery(query);
        List<Integer> order = new ArrayList<>(names.size());
        double[] score = new double[names.size()];
        for (int i = 0; i < names.size(); i++) {
            double dot = 0;
            float[] v = vectors[i];
            for (int j = 0; j < q.length; j++) {
                dot += q[j] * v[j];
            }
            score[i] = dot;
            order.add(i);
        }
        order.sort((a, b) -> {
            int c = Double.compare(score[b], score[a]);
            return c != 0 ? c : names.get(a).compareTo(names.get(b));
        });
        return order.subList(0, Math.min(limit, order.size())).stream()
                .map(names::get)
                .toList();
    }
}
