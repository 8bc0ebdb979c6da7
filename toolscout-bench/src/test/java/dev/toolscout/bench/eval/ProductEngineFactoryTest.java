package dev.toolscout.bench.eval;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProductEngineFactoryTest {
  @Test
  void without_the_server_on_the_class_path_the_harness_says_what_is_missing() {
    // this module's tests run without toolscout-server, which holds the one implementation
    assertThatThrownBy(ProductEngineFactory::fromClassPath)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(ProductEngineFactory.class.getName())
        .hasMessageContaining("-cp toolscout-server/target/toolscout.jar")
        .hasMessageEndingWith("found 0");
  }
}
