package dev.toolscout.embeddings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The model file the launcher unpacks once per build is used only when it is the jar's own entry. */
class BundledOnnxModelsTest {
  private static final Class<?> JAR = AllMiniLmL6V2QuantizedEmbeddingModel.class;
  private static final String MODEL = "all-minilm-l6-v2-q.onnx";

  @TempDir Path dir;

  private static byte[] fromJar() throws IOException {
    try (InputStream in = JAR.getClassLoader().getResourceAsStream(MODEL)) {
      return in.readAllBytes();
    }
  }

  @Test
  void an_unpacked_copy_of_the_jars_model_is_read_from_its_file() throws IOException {
    byte[] jar = fromJar();
    Files.write(dir.resolve(MODEL), jar);

    assertThat(BundledOnnxModels.unpacked(JAR, MODEL, dir.toString())).isEqualTo(jar);
  }

  @Test
  void a_changed_missing_or_unset_copy_is_not_used_and_the_jar_is_read() throws IOException {
    byte[] changed = fromJar();
    changed[changed.length / 2] ^= 1; // same size, other bytes: another version of the model
    Files.write(dir.resolve(MODEL), changed);

    assertThat(BundledOnnxModels.unpacked(JAR, MODEL, dir.toString())).isNull();
    assertThat(BundledOnnxModels.unpacked(JAR, MODEL, dir.resolve("none").toString())).isNull();
    assertThat(BundledOnnxModels.unpacked(JAR, MODEL, null)).isNull();
    assertThat(BundledOnnxModels.modelBytes(JAR, MODEL)).isEqualTo(fromJar());
  }
}
