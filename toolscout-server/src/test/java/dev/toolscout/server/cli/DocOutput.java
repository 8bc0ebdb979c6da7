package dev.toolscout.server.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares a doc's sample output with what a command printed. Exact, except: a number written with two or more
 * decimals (a score, a cosine) matches one within {@value #TOLERANCE} of it, since such figures differ across CPUs
 * in the last digits; {@code ...} inside a line stands for any text, and a line that is only {@code ...} for any
 * number of lines. Trailing blanks and trailing empty lines are ignored; a JSON block is compared with the white
 * space outside strings removed, so it may be laid out for reading.
 */
final class DocOutput {
    static final double TOLERANCE = 0.01;

    private static final Pattern TOKEN = Pattern.compile("\\.\\.\\.|-?\\d+\\.\\d{2,}");

    /** Where a sample and the output part: {@code index} is the sample's line (-1 past its end), or null. */
    record Mismatch(int index, String expected, String actual) {}

    private DocOutput() {}

    static List<String> lines(String text) {
        List<String> out = new ArrayList<>();
        for (String l : text.split("\n", -1)) {
            out.add(l.stripTrailing());
        }
        while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        while (!out.isEmpty() && out.get(0).isEmpty()) {
            out.remove(0);
        }
        return out;
    }

    /** The sample's JSON on one line, white space outside strings removed. */
    static String compactJson(List<String> lines) {
        StringBuilder b = new StringBuilder();
        boolean inString = false;
        String all = String.join("\n", lines);
        for (int i = 0; i < all.length(); i++) {
            char c = all.charAt(i);
            if (inString) {
                b.append(c);
                if (c == '\\' && i + 1 < all.length()) {
                    b.append(all.charAt(++i));
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
                b.append(c);
            } else if (!Character.isWhitespace(c)) {
                b.append(c);
            }
        }
        return b.toString();
    }

    static boolean elided(List<String> sample) {
        return sample.stream().anyMatch(l -> l.contains("..."));
    }

    /** The first place {@code actual} departs from {@code sample}, or null when it matches. */
    static Mismatch compare(List<String> sample, List<String> actual) {
        int i = 0;
        int j = 0;
        while (i < sample.size()) {
            String e = sample.get(i);
            if (e.strip().equals("...")) {
                if (i == sample.size() - 1) {
                    return null;
                }
                int k = j;
                while (k < actual.size() && !line(sample.get(i + 1), actual.get(k))) {
                    k++;
                }
                if (k == actual.size()) {
                    return new Mismatch(i + 1, sample.get(i + 1), j < actual.size() ? actual.get(j) : "");
                }
                j = k;
                i++;
                continue;
            }
            if (j >= actual.size()) {
                return new Mismatch(i, e, "(nothing more)");
            }
            if (!line(e, actual.get(j))) {
                return new Mismatch(i, e, actual.get(j));
            }
            i++;
            j++;
        }
        return j < actual.size() ? new Mismatch(-1, "(nothing more)", actual.get(j)) : null;
    }

    /** Whether one actual line matches one sample line (elisions, numbers within the tolerance). */
    static boolean line(String sample, String actual) {
        if (sample.equals(actual)) {
            return true;
        }
        StringBuilder regex = new StringBuilder("^");
        List<Double> numbers = new ArrayList<>();
        Matcher m = TOKEN.matcher(sample);
        int last = 0;
        while (m.find()) {
            regex.append(Pattern.quote(sample.substring(last, m.start())));
            if (m.group().equals("...")) {
                regex.append(".*?");
            } else {
                regex.append("(-?\\d+\\.\\d+)");
                numbers.add(Double.parseDouble(m.group()));
            }
            last = m.end();
        }
        regex.append(Pattern.quote(sample.substring(last))).append('$');
        Matcher a = Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(actual);
        if (!a.matches()) {
            return false;
        }
        for (int g = 0; g < numbers.size(); g++) {
            if (Math.abs(Double.parseDouble(a.group(g + 1)) - numbers.get(g)) > TOLERANCE + 1e-9) {
                return false;
            }
        }
        return true;
    }

    /**
     * The sample rewritten to {@code actual} for the update mode: lines that still match are kept as written (a
     * score within the tolerance is not churned), the others replaced. Null for a sample with elisions, which
     * only a person can shorten again.
     */
    static List<String> updated(List<String> sample, List<String> actual) {
        if (elided(sample)) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (int j = 0; j < actual.size(); j++) {
            out.add(j < sample.size() && line(sample.get(j), actual.get(j)) ? sample.get(j) : actual.get(j));
        }
        return out;
    }
}
