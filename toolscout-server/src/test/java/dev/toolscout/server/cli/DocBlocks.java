package dev.toolscout.server.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fenced blocks of one Markdown file, each with the HTML comment on the line before it, if any
 * ({@code <!-- not run: REASON -->}, {@code <!-- file: NAME -->}, {@code <!-- output of: COMMAND -->}); the
 * convention is in docs/USAGE.md, "Executable docs".
 */
final class DocBlocks {
    private static final Pattern FENCE = Pattern.compile("^(\\s*)(```+|~~~+)\\s*([^\\s`]*).*$");
    private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*(not run|file|output of)\\s*:(.*?)-->\\s*$");

    /** What the comment before a block says about it. */
    enum Mark {
        NONE,
        NOT_RUN,
        FILE,
        OUTPUT_OF
    }

    /**
     * One fenced block: {@code first} is the 1-based line of its first content line, {@code end} that of its closing
     * fence; {@code lines} are its content with the fence's indentation removed.
     */
    record Block(int first, int end, String lang, List<String> lines, Mark mark, String markText, int markLine) {
        boolean commands() {
            return lang.equals("sh")
                    || lang.equals("bash")
                    || lang.equals("shell")
                    || lang.equals("console")
                    || session();
        }

        /** A block of {@code $ command} lines, each followed by what it prints. */
        boolean session() {
            return !lines.isEmpty() && lines.get(0).startsWith("$ ");
        }

        /** A block that may show what commands printed: no language, text or JSON. */
        boolean output() {
            return !session() && (lang.isEmpty() || lang.equals("text") || lang.equals("json"));
        }
    }

    private DocBlocks() {}

    static List<Block> parse(List<String> lines) {
        List<Block> blocks = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            Matcher m = FENCE.matcher(lines.get(i));
            if (!m.matches()) {
                i++;
                continue;
            }
            String indent = m.group(1);
            String fence = m.group(2);
            String lang = m.group(3).toLowerCase(Locale.ROOT);
            int open = i;
            List<String> body = new ArrayList<>();
            i++;
            while (i < lines.size() && !lines.get(i).strip().startsWith(fence)) {
                String l = lines.get(i);
                body.add(l.startsWith(indent) ? l.substring(indent.length()) : l.stripLeading());
                i++;
            }
            Mark mark = Mark.NONE;
            String text = "";
            int markLine = 0;
            int before = open - 1;
            while (before >= 0 && lines.get(before).isBlank()) {
                before--;
            }
            if (before >= 0) {
                Matcher c = MARKER.matcher(lines.get(before));
                if (c.matches()) {
                    mark = switch (c.group(1)) {
                        case "not run" -> Mark.NOT_RUN;
                        case "file" -> Mark.FILE;
                        default -> Mark.OUTPUT_OF;
                    };
                    text = c.group(2).strip();
                    markLine = before + 1;
                }
            }
            blocks.add(new Block(open + 2, i + 1, lang, List.copyOf(body), mark, text, markLine));
            i++;
        }
        return blocks;
    }

    /** Whether only blank lines separate {@code a} (its closing fence) from {@code b} (its opening fence). */
    static boolean adjacent(List<String> lines, Block a, Block b) {
        for (int l = a.end(); l < b.first() - 2; l++) {
            if (!lines.get(l).isBlank()) {
                return false;
            }
        }
        return true;
    }
}
