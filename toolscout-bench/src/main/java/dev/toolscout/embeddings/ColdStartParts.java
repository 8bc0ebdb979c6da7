package dev.toolscout.embeddings;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.model.Principal;
import dev.toolscout.selection.Selector;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a cold start is made of (docs/BENCHMARKS.md, "Cold start"): the parts of a start run one after the other
 * in this fresh JVM, each with its wall time and the CPU time the whole process spent in it (CPU time tells the
 * parts apart on a machine too busy for wall times). {@code model}: the model's load step by step, as {@code
 * BundledOnnxModels} does it; {@code engine DIR}: the data directory's open without the model, then the first
 * selection (which loads it). Run it with the launcher's flags and class-data cache:
 *
 * <pre>
 * java -XX:AOTCache=toolscout-server/target/toolscout.aot --enable-native-access=ALL-UNNAMED \
 *   --add-modules jdk.incubator.vector [-Donnxruntime.native.path=toolscout-server/target/onnxruntime-native] \
 *   [-Dtoolscout.models.dir=toolscout-server/target/models] \
 *   -cp toolscout-server/target/toolscout.jar:toolscout-bench/target/classes \
 *   dev.toolscout.embeddings.ColdStartParts model|engine DIR
 * </pre>
 */
public final class ColdStartParts {
    private static long wall = System.nanoTime();
    private static long cpu = cpu();

    private ColdStartParts() {}

    public static void main(String[] args) throws Exception {
        // -Dlaunched=$(date +%s%3N) on the command line: the OS's process start time is whole seconds off on Linux
        // (the boot time it adds to is), see BenchProbe.started
        String launched = System.getProperty("launched");
        long sinceStart = launched != null
                ? System.currentTimeMillis() - Long.parseLong(launched)
                : Duration.between(ProcessHandle.current().info().startInstant().orElseThrow(), Instant.now())
                        .toMillis();
        System.out.printf(
                Locale.ROOT, "%-34s wall %8d ms  cpu %7.0f ms%n", "JVM start to main", sinceStart, cpu() / 1e6);
        wall = System.nanoTime();
        cpu = cpu();
        org.slf4j.LoggerFactory.getLogger(ColdStartParts.class).debug("logging set up");
        lap("logging set-up");
        if (args[0].equals("model")) {
            OrtEnvironment env = OrtEnvironment.getEnvironment();
            lap("ONNX Runtime's native libraries");
            ClassLoader cl = AllMiniLmL6V2QuantizedEmbeddingModel.class.getClassLoader();
            byte[] model;
            try (InputStream in = cl.getResourceAsStream("all-minilm-l6-v2-q.onnx")) {
                model = in.readAllBytes();
            }
            lap("the model's bytes, from the jar");
            String dir = System.getProperty(BundledOnnxModels.MODELS_DIR);
            java.nio.file.Path unpacked = null;
            if (dir != null) {
                unpacked = BundledOnnxModels.unpacked(
                        AllMiniLmL6V2QuantizedEmbeddingModel.class, "all-minilm-l6-v2-q.onnx", dir);
                lap(unpacked != null ? "the unpacked model file checked" : "(no unpacked model file in " + dir + ")");
            }
            byte[] tokenizer;
            try (InputStream in = cl.getResourceAsStream("all-minilm-l6-v2-q-tokenizer.json")) {
                tokenizer = in.readAllBytes();
            }
            lap("the tokenizer's bytes");
            OrtSession session;
            try (OrtSession.SessionOptions o = new OrtSession.SessionOptions()) {
                o.setIntraOpNumThreads(1);
                o.setInterOpNumThreads(1);
                session = unpacked != null ? env.createSession(unpacked.toString(), o) : env.createSession(model, o);
            }
            lap(unpacked != null ? "the ONNX session, from the file" : "the ONNX session");
            HuggingFaceTokenizer first =
                    HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(tokenizer), Map.of("padding", "false"));
            lap("the first tokenizer");
            HuggingFaceTokenizer second =
                    HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(tokenizer), Map.of("padding", "false"));
            lap("a second tokenizer");
            new OnnxBertBiEncoder(env, session, new ByteArrayInputStream(tokenizer), PoolingMode.MEAN);
            lap("LangChain4j's encoder (a third)");
            ClauseEncoder encoder = new ClauseEncoder(env, session, second);
            encoder.embed("Schedule a meeting with the team", List.of());
            lap("first inference");
            encoder.embed("Book a table for two at the Italian place", List.of());
            lap("second inference");
            first.close();
        } else {
            try (ToolScout e = ToolScout.builder()
                    .preloadModel(false)
                    .dataDir(Path.of(args[1]))
                    .build()) {
                lap("the open without the model");
                e.rankingParts()
                        .selector()
                        .select(Selector.Request.of("Schedule a meeting with the team", Principal.ANONYMOUS));
                lap("first selection (loads the model)");
                e.rankingParts()
                        .selector()
                        .select(Selector.Request.of("Book a table for two at the Italian place", Principal.ANONYMOUS));
                lap("second selection");
            }
        }
    }

    private static long cpu() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
    }

    private static void lap(String what) {
        long w = System.nanoTime();
        long c = cpu();
        System.out.printf(Locale.ROOT, "%-34s wall %8.0f ms  cpu %7.0f ms%n", what, (w - wall) / 1e6, (c - cpu) / 1e6);
        wall = w;
        cpu = c;
    }
}
