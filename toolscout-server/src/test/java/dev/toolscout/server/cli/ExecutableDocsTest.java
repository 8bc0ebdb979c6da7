package dev.toolscout.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.server.cli.DocBlocks.Block;
import dev.toolscout.server.cli.DocBlocks.Mark;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Executable docs (issue 33): every command block of README.md and docs/*.md is run, in a fresh data directory
 * per doc, and what it prints is compared with the sample output the doc shows; an example that no longer runs
 * or a sample that no longer matches fails naming the doc and the line. The convention (which blocks run, the
 * markers, the tolerance) is in docs/USAGE.md, "Executable docs"; {@code -Ddocs.update=true} rewrites the samples
 * in place instead of failing.
 */
class ExecutableDocsTest {
    private static final boolean UPDATE = Boolean.getBoolean("docs.update");

    @TempDir
    static Path tmp;

    static Path repo;
    static Path template;

    @BeforeAll
    static void demoDataDirectory() {
        repo = Path.of("").toAbsolutePath().getParent();
        assertThat(repo.resolve("README.md"))
                .as("the repository root, above toolscout-server")
                .exists();
        // a new data directory with the demo catalog embedded, copied for each doc: the same as a new one, minus the
        // embedding (the model itself loads once per JVM)
        template = tmp.resolve("template");
        StringWriter out = new StringWriter();
        int code = ToolScoutCli.run(
                new String[] {"select", "--data-dir", template.toString(), "embed the demo catalog"},
                new PrintWriter(out, true),
                new PrintWriter(out, true));
        assertThat(code).as(out.toString()).isZero();
    }

    @TestFactory
    Stream<DynamicTest> every_command_block_runs_and_prints_what_its_doc_shows() throws Exception {
        List<Path> docs = new ArrayList<>();
        docs.add(repo.resolve("README.md"));
        try (Stream<Path> s = Files.list(repo.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs.stream().map(d -> DynamicTest.dynamicTest(repo.relativize(d).toString(), () -> check(d)));
    }

    private static void check(Path doc) throws Exception {
        String name = repo.relativize(doc).toString();
        List<String> lines = Files.readAllLines(doc);
        List<Block> blocks = DocBlocks.parse(lines);
        List<String> failures = new ArrayList<>();
        // 0-based first content line -> (end exclusive, new content), applied from the bottom in update mode
        TreeMap<Integer, Object[]> rewrites = new TreeMap<>();
        Path work = Files.createTempDirectory(tmp, "doc");
        try (DocShell sh = new DocShell(repo, work, template)) {
            for (int b = 0; b < blocks.size(); b++) {
                Block k = blocks.get(b);
                Block next = b + 1 < blocks.size() ? blocks.get(b + 1) : null;
                boolean paired = next != null
                        && next.mark() == Mark.NONE
                        && next.output()
                        && DocBlocks.adjacent(lines, k, next)
                        && k.commands();
                switch (k.mark()) {
                    case NOT_RUN -> {
                        if (k.markText().isEmpty()) {
                            failures.add(name + ":" + k.markLine() + ": '<!-- not run: -->' must say why");
                        }
                        b += paired ? 1 : 0;
                    }
                    case FILE -> sh.writeFile(k.markText(), k.lines());
                    case OUTPUT_OF -> {
                        String out = script(sh, name, k.markLine(), List.of(k.markText()), false, failures);
                        if (out != null) {
                            compare(name, k, out, failures, rewrites);
                        }
                    }
                    case NONE -> {
                        if (k.session()) {
                            session(sh, name, k, failures, rewrites);
                        } else if (k.commands()) {
                            String out = script(sh, name, k.first(), k.lines(), paired, failures);
                            if (paired && out != null) {
                                compare(name, next, out, failures, rewrites);
                            }
                            b += paired ? 1 : 0;
                        }
                    }
                }
            }
        }
        if (UPDATE && !rewrites.isEmpty()) {
            List<String> updated = new ArrayList<>(lines);
            for (var e : rewrites.descendingMap().entrySet()) {
                int end = (Integer) e.getValue()[0];
                @SuppressWarnings("unchecked")
                List<String> content = (List<String>) e.getValue()[1];
                updated.subList(e.getKey(), end).clear();
                updated.addAll(e.getKey(), content);
            }
            Files.writeString(doc, String.join("\n", updated) + "\n");
        }
        assertThat(failures)
                .as("doc examples that fail or print another output")
                .isEmpty();
    }

    /**
     * Runs a block's commands; returns what the foreground commands printed, or null when one could not run or
     * (with no sample to compare, {@code shown} false) failed.
     */
    private static String script(
            DocShell sh, String doc, int firstLine, List<String> block, boolean shown, List<String> failures)
            throws Exception {
        StringBuilder printed = new StringBuilder();
        int line = firstLine;
        StringBuilder cur = new StringBuilder();
        int start = line;
        for (String l : block) {
            if (cur.isEmpty()) {
                start = line;
            }
            line++;
            if (l.endsWith("\\")) {
                cur.append(l, 0, l.length() - 1).append(' ');
                continue;
            }
            cur.append(l);
            String cmd = cur.toString();
            cur.setLength(0);
            if (cmd.isBlank()) {
                continue;
            }
            DocShell.Result r;
            try {
                r = sh.run(cmd);
            } catch (DocShell.CannotRun e) {
                failures.add(doc + ":" + start + ": cannot run '" + cmd.strip() + "': " + e.getMessage()
                        + "; mark the block <!-- not run: REASON --> if it needs what this test does not have");
                return null;
            }
            printed.append(r.output());
            if (r.failed() && !shown) {
                failures.add(doc + ":" + start + ": '" + cmd.strip() + "' failed ("
                        + (r.httpStatus() >= 400 ? "HTTP " + r.httpStatus() : "exit " + r.exit()) + "): "
                        + abbreviate(r.output()));
                return null;
            }
        }
        return printed.toString();
    }

    /** A block of {@code $ command} lines: each command's output is the lines after it, up to the next one. */
    private static void session(
            DocShell sh, String doc, Block k, List<String> failures, TreeMap<Integer, Object[]> rewrites)
            throws Exception {
        List<String> rewritten = new ArrayList<>();
        int failed = failures.size();
        boolean changed = false;
        boolean rewritable = true;
        List<String> body = k.lines();
        int i = 0;
        while (i < body.size()) {
            String cmd = body.get(i);
            int cmdLine = k.first() + i;
            int j = i + 1;
            while (j < body.size() && !body.get(j).startsWith("$ ")) {
                j++;
            }
            List<String> sample = DocOutput.lines(String.join("\n", body.subList(i + 1, j)));
            rewritten.add(cmd);
            DocShell.Result r;
            try {
                r = sh.run(cmd.substring(2));
            } catch (DocShell.CannotRun e) {
                failures.add(doc + ":" + cmdLine + ": cannot run '"
                        + cmd.substring(2).strip() + "': " + e.getMessage()
                        + "; mark the block <!-- not run: REASON -->");
                return;
            }
            List<String> actual = DocOutput.lines(r.output());
            DocOutput.Mismatch m = DocOutput.compare(sample, actual);
            if (m != null) {
                int at = m.index() < 0 ? cmdLine + (j - i) : cmdLine + 1 + m.index();
                failures.add(doc + ":" + at + ": expected '" + m.expected() + "' got '" + m.actual() + "'"
                        + (DocOutput.elided(sample) ? " (the sample has '...' elisions: update it by hand)" : ""));
                List<String> u = DocOutput.updated(sample, actual);
                rewritable &= u != null;
                rewritten.addAll(u != null ? u : body.subList(i + 1, j));
                changed = true;
            } else {
                rewritten.addAll(body.subList(i + 1, j));
            }
            i = j;
        }
        if (changed && rewritable) {
            rewrite(k, rewritten, failures, rewrites, failures.size() - failed);
        }
    }

    private static void compare(
            String doc, Block sample, String output, List<String> failures, TreeMap<Integer, Object[]> rewrites) {
        boolean json = sample.lang().equals("json");
        List<String> expected = json
                ? List.of(DocOutput.compactJson(sample.lines()))
                : DocOutput.lines(String.join("\n", sample.lines()));
        List<String> actual = json ? List.of(DocOutput.compactJson(List.of(output))) : DocOutput.lines(output);
        DocOutput.Mismatch m = DocOutput.compare(expected, actual);
        if (m == null) {
            return;
        }
        int at = json || m.index() < 0 ? sample.first() : sample.first() + m.index();
        boolean elided = DocOutput.elided(expected);
        failures.add(doc + ":" + at + ": expected '" + m.expected() + "' got '" + m.actual() + "'"
                + (elided ? " (the sample has '...' elisions: update it by hand)" : ""));
        List<String> u = json ? (elided ? null : DocOutput.lines(output)) : DocOutput.updated(expected, actual);
        if (u != null) {
            rewrite(sample, u, failures, rewrites, 1);
        }
    }

    private static void rewrite(
            Block k, List<String> content, List<String> failures, TreeMap<Integer, Object[]> rewrites, int count) {
        if (UPDATE) {
            rewrites.put(k.first() - 1, new Object[] {k.end() - 1, content});
            // rewritten, so no longer failures of the doc
            failures.subList(failures.size() - count, failures.size()).clear();
        }
    }

    private static String abbreviate(String s) {
        String one = s.strip().replace('\n', ' ');
        return one.length() > 300 ? one.substring(0, 300) + "..." : one;
    }
}
