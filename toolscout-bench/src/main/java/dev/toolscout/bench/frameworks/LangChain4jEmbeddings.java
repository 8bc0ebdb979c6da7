package dev.toolscout.bench.frameworks;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.output.Response;
import dev.toolscout.embedding.EmbeddingModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * ToolScout's embedding model as a LangChain4j {@code EmbeddingModel}, for LangChain4j's own tool search: every text
 * is embedded as a document by the model alone (hand in {@code LocalEmbeddingModels.createPlain}: no query adapter,
 * which is ToolScout's), as LangChain4j's in-process model of the same weights does. A text whose vector is handed in
 * ({@code known}: the eval's cache of the same texts by the same model) is not embedded again. Thread-safe when the
 * model is.
 */
final class LangChain4jEmbeddings implements dev.langchain4j.model.embedding.EmbeddingModel {
    private final EmbeddingModel model;
    private final Map<String, float[]> known;

    LangChain4jEmbeddings(EmbeddingModel model, Map<String, float[]> known) {
        this.model = Objects.requireNonNull(model, "model");
        this.known = Map.copyOf(known);
    }

    @Override
    public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
        Embedding[] out = new Embedding[segments.size()];
        List<String> texts = new ArrayList<>();
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i < segments.size(); i++) {
            float[] v = known.get(segments.get(i).text());
            if (v != null) {
                out[i] = Embedding.from(v.clone());
            } else {
                texts.add(segments.get(i).text());
                at.add(i);
            }
        }
        for (int from = 0; from < texts.size(); from += 64) {
            List<float[]> batch = model.embedDocuments(texts.subList(from, Math.min(texts.size(), from + 64)));
            for (int i = 0; i < batch.size(); i++) {
                out[at.get(from + i)] = Embedding.from(batch.get(i));
            }
        }
        return Response.from(List.of(out));
    }

    @Override
    public int dimension() {
        return model.dimension();
    }

    @Override
    public String modelName() {
        return model.modelId();
    }
}
