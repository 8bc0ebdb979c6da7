package dev.toolscout.server.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.server.cli.ToolScoutCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvalCommandInputTest {
  @TempDir Path dir;

  private int eval(StringWriter err) {
    String[] args = {"eval", "--dataset=" + dir, "--work-dir=" + dir.resolve("work"), "--format=json"};
    return ToolScoutCli.run(args, new PrintWriter(new StringWriter()), new PrintWriter(err, true));
  }

  @Test
  void a_malformed_tools_line_is_bad_input_naming_file_and_line() throws Exception {
    Files.writeString(dir.resolve("tools.jsonl"), "{\"id\": \"a\", \"name\": \"x\", \"description\": \"d\"}\n{oops\n");
    Files.writeString(dir.resolve("queries.jsonl"), "{\"id\": \"q\", \"text\": \"hi\"}\n");
    Files.writeString(dir.resolve("qrels.tsv"), "query-id\ttool-id\tscore\nq\ta\t1\n");
    StringWriter err = new StringWriter();
    assertThat(eval(err)).isEqualTo(ToolScoutCli.BAD_INPUT);
    assertThat(err.toString()).contains("tools.jsonl:2: malformed JSON").doesNotContain("\tat ");
  }

  @Test
  void qrels_naming_an_unknown_tool_is_bad_input_naming_file_and_line() throws Exception {
    Files.writeString(dir.resolve("tools.jsonl"), "{\"id\": \"a\", \"name\": \"x\", \"description\": \"d\"}\n");
    Files.writeString(dir.resolve("queries.jsonl"), "{\"id\": \"q\", \"text\": \"hi\"}\n");
    Files.writeString(dir.resolve("qrels.tsv"), "query-id\ttool-id\tscore\nq\tnope\t1\n");
    StringWriter err = new StringWriter();
    assertThat(eval(err)).isEqualTo(ToolScoutCli.BAD_INPUT);
    assertThat(err.toString()).contains("qrels.tsv:2: tool 'nope' is not in tools.jsonl");
  }

  @Test
  void a_missing_file_is_bad_input_naming_it() {
    StringWriter err = new StringWriter();
    assertThat(eval(err)).isEqualTo(ToolScoutCli.BAD_INPUT);
    assertThat(err.toString()).contains("tools.jsonl:0: missing");
  }
}
