package dev.toolscout.embeddings;

import static org.assertj.core.api.Assertions.assertThat;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.io.IOException;
import java.io.InputStream;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The model file the launcher unpacks once per build is used only when it is the jar's own entry. */
class BundledOnnxModelsTest {
    private static final Class<?> JAR = AllMiniLmL6V2QuantizedEmbeddingModel.class;
    private static final String MODEL = "all-minilm-l6-v2-q.onnx";

    @TempDir
    Path dir;

    private static byte[] fromJar() throws IOException {
        try (InputStream in = JAR.getClassLoader().getResourceAsStream(MODEL)) {
            return in.readAllBytes();
        }
    }

    @Test
    void loading_a_model_turns_off_djls_usage_tracking_and_downloads_first() {
        // the tokenizer's DJL reads EC2's metadata address and reports usage unless told not to: no network call
        BundledOnnxModels.allMiniLmL6V2Quantized();

        assertThat(System.getProperty("OPT_OUT_TRACKING")).isEqualTo("true");
        assertThat(ai.djl.util.Utils.isOfflineMode()).isTrue();
    }

    @Test
    void an_unpacked_copy_of_the_jars_model_is_read_from_its_file() throws IOException {
        Files.write(dir.resolve(MODEL), fromJar());

        assertThat(BundledOnnxModels.unpacked(JAR, MODEL, dir.toString())).isEqualTo(dir.resolve(MODEL));
    }

    @Test
    void a_session_read_from_the_unpacked_file_computes_what_one_from_the_jars_bytes_does() throws Exception {
        Files.write(dir.resolve(MODEL), fromJar());
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        String before = System.getProperty(BundledOnnxModels.MODELS_DIR);
        try (OrtSession.SessionOptions o = new OrtSession.SessionOptions()) {
            o.setIntraOpNumThreads(1);
            System.clearProperty(BundledOnnxModels.MODELS_DIR);
            float[][] fromBytes;
            try (OrtSession s = BundledOnnxModels.createSession(env, JAR, MODEL, o)) {
                fromBytes = states(env, s);
            }
            System.setProperty(BundledOnnxModels.MODELS_DIR, dir.toString());
            try (OrtSession s = BundledOnnxModels.createSession(env, JAR, MODEL, o)) {
                assertThat(states(env, s)).isDeepEqualTo(fromBytes);
            }
        } finally {
            if (before == null) {
                System.clearProperty(BundledOnnxModels.MODELS_DIR);
            } else {
                System.setProperty(BundledOnnxModels.MODELS_DIR, before);
            }
        }
    }

    /** The token states of one short input ([CLS] "find a tool" [SEP] in MiniLM's vocabulary). */
    private static float[][] states(OrtEnvironment env, OrtSession s) throws Exception {
        long[] ids = {101, 2424, 1037, 6994, 102};
        long[] shape = {1, ids.length};
        long[] mask = {1, 1, 1, 1, 1};
        try (OnnxTensor i = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape);
                OnnxTensor m = OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape);
                OnnxTensor t = OnnxTensor.createTensor(env, LongBuffer.wrap(new long[ids.length]), shape);
                OrtSession.Result r = s.run(Map.of("input_ids", i, "attention_mask", m, "token_type_ids", t))) {
            return ((float[][][]) r.get(0).getValue())[0];
        }
    }

    @Test
    void a_changed_missing_or_unset_copy_is_not_used_and_the_jar_is_read() throws IOException {
        byte[] changed = fromJar();
        changed[changed.length / 2] ^= 1; // same size, other bytes: another version of the model
        Files.write(dir.resolve(MODEL), changed);

        assertThat(BundledOnnxModels.unpacked(JAR, MODEL, dir.toString())).isNull();
        assertThat(BundledOnnxModels.unpacked(JAR, MODEL, dir.resolve("none").toString()))
                .isNull();
        assertThat(BundledOnnxModels.unpacked(JAR, MODEL, null)).isNull();
    }
}
