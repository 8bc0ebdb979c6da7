package dev.toolscout.server.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * The little of a POSIX shell the docs' command blocks use, run in this JVM: {@code ./toolscout ...} through the
 * CLI's entry point ({@link ToolScoutCli#run}), {@code curl} as an HTTP call to the {@code serve} the doc started,
 * {@code echo}, variables ({@code X=v}, {@code export X=v}, arrays {@code X=(a b)} and {@code "${X[@]}"}, {@code
 * $?}, {@code $(mktemp -d)}), quotes, comments, {@code \} line continuations. Anything else is {@link CannotRun}:
 * the block has to be marked {@code <!-- not run: REASON -->}. One shell per doc: its blocks share the variables, a
 * working directory and a fresh data directory (a copy of one made once per JVM, so the demo catalog is embedded
 * once).
 */
final class DocShell implements AutoCloseable {
    /** A command this shell cannot run here. */
    static final class CannotRun extends RuntimeException {
        CannotRun(String message) {
            super(message);
        }
    }

    /** What one command printed (stdout and stderr in order), its exit code, and for curl the HTTP status. */
    record Result(String output, int exit, int httpStatus) {
        boolean failed() {
            return exit != 0 || httpStatus >= 400;
        }
    }

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern ASSIGN = Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", Pattern.DOTALL);
    private static final Pattern LISTENING = Pattern.compile("HTTP API on (http://[^/\\s]+)/v1");

    private final Path repo;
    private final Path work;
    private final Path dataDir;
    private final Path template;
    private final Map<String, List<String>> vars = new HashMap<>();
    private final Map<String, String> exported = new LinkedHashMap<>();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private int lastExit;
    private Thread serve;
    private String servePort;
    private String serveUrl;

    DocShell(Path repo, Path work, Path template) throws IOException {
        this.repo = repo;
        this.work = work;
        this.template = template;
        this.dataDir = work.resolve("toolscout-data");
        copy(template, dataDir);
    }

    /** Writes a file the doc shows ({@code <!-- file: NAME -->}) into the working directory. */
    void writeFile(String name, List<String> lines) throws IOException {
        Path p = work.resolve(name).normalize();
        if (!p.startsWith(work)) {
            throw new IllegalArgumentException("file name must stay in the working directory, got: " + name);
        }
        Files.createDirectories(p.getParent());
        Files.writeString(p, String.join("\n", lines) + "\n");
    }

    /** Splits a block into logical lines (continuations joined, blank lines dropped). */
    static List<String> logicalLines(List<String> lines) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (String l : lines) {
            if (l.endsWith("\\")) {
                cur.append(l, 0, l.length() - 1).append(' ');
                continue;
            }
            cur.append(l);
            if (!cur.toString().isBlank()) {
                out.add(cur.toString());
            }
            cur.setLength(0);
        }
        if (!cur.toString().isBlank()) {
            out.add(cur.toString());
        }
        return out;
    }

    /** Runs one command line. */
    Result run(String line) throws Exception {
        String trimmed = line.strip();
        Matcher arr = Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)=\\((.*)\\)$").matcher(trimmed);
        if (arr.matches()) {
            vars.put(arr.group(1), List.copyOf(words(arr.group(2))));
            return new Result("", lastExit = 0, 0);
        }
        List<String> w = new ArrayList<>(words(trimmed));
        if (w.isEmpty()) {
            return new Result("", lastExit, 0);
        }
        boolean background = w.get(w.size() - 1).equals("&");
        if (background) {
            w.remove(w.size() - 1);
        }
        String cmd = w.get(0);
        Result r;
        if (w.size() == 1 && ASSIGN.matcher(cmd).matches()) {
            Matcher a = ASSIGN.matcher(cmd);
            a.matches();
            vars.put(a.group(1), List.of(a.group(2)));
            r = new Result("", 0, 0);
        } else if (cmd.equals("export")
                && w.size() == 2
                && ASSIGN.matcher(w.get(1)).matches()) {
            Matcher a = ASSIGN.matcher(w.get(1));
            a.matches();
            vars.put(a.group(1), List.of(a.group(2)));
            exported.put(a.group(1), a.group(2));
            r = new Result("", 0, 0);
        } else if (cmd.equals("echo")) {
            r = new Result(String.join(" ", w.subList(1, w.size())) + "\n", 0, 0);
        } else if (cmd.equals("./toolscout") || cmd.equals("toolscout")) {
            List<String> args = w.subList(1, w.size());
            if (!args.isEmpty() && args.get(0).equals("serve")) {
                r = serve(args);
            } else if (background) {
                throw new CannotRun("only 'toolscout serve' runs in the background here");
            } else {
                r = toolscout(args);
            }
        } else if (cmd.equals("curl")) {
            r = curl(w.subList(1, w.size()));
        } else {
            throw new CannotRun("'" + cmd + "' is not a command the docs test runs");
        }
        lastExit = r.exit();
        return r;
    }

    private Result toolscout(List<String> given) {
        List<String> args = cliArgs(given);
        StringWriter both = new StringWriter();
        PrintWriter w = new PrintWriter(both, true);
        int code = ToolScoutCli.run(args.toArray(String[]::new), new ByteArrayInputStream(new byte[0]), w, w, env());
        w.flush();
        return new Result(clean(both.toString()), code, 0);
    }

    /** The arguments as the CLI gets them: paths made absolute, the doc's data directory unless one is given. */
    private List<String> cliArgs(List<String> given) {
        List<String> args = new ArrayList<>();
        CommandLine cl = new CommandLine(new ToolScoutCli(new ByteArrayInputStream(new byte[0]), env()));
        int path = 0;
        while (path < given.size() && cl.getSubcommands().containsKey(given.get(path))) {
            cl = cl.getSubcommands().get(given.get(path));
            args.add(given.get(path));
            path++;
        }
        boolean hasDataDir = false;
        for (int i = path; i < given.size(); i++) {
            String a = given.get(i);
            if (a.equals("--data-dir") && i + 1 < given.size()) {
                hasDataDir = true;
                Path d = work.resolve(given.get(i + 1)).normalize();
                if (!Files.exists(d)) {
                    copy(template, d); // a new data directory starts with the demo catalog: the same, embedded once
                }
                args.add(a);
                args.add(d.toString());
                i++;
            } else if (a.equals("--")) {
                args.addAll(given.subList(i, given.size()));
                break;
            } else {
                args.add(
                        a.startsWith("-") && a.contains("=")
                                ? a.substring(0, a.indexOf('=') + 1) + file(a.substring(a.indexOf('=') + 1))
                                : file(a));
            }
        }
        if (!hasDataDir && cl.getCommandSpec().findOption("--data-dir") != null) {
            args.add(path, "--data-dir");
            args.add(path + 1, dataDir.toString());
        }
        return args;
    }

    /** A relative path that names a file in the working directory, else in the repository, made absolute. */
    private String file(String arg) {
        if (arg.isEmpty()
                || arg.startsWith("-")
                || arg.contains("\n")
                || Path.of(arg).isAbsolute()) {
            return arg;
        }
        try {
            for (Path base : List.of(work, repo)) {
                Path p = base.resolve(arg).normalize();
                if (Files.exists(p)) {
                    return p.toString();
                }
            }
        } catch (java.nio.file.InvalidPathException notAPath) {
            return arg;
        }
        return arg;
    }

    private Result serve(List<String> given) throws Exception {
        if (serve != null) {
            throw new CannotRun("a second 'toolscout serve' in one doc");
        }
        List<String> args = new ArrayList<>(cliArgs(given));
        int p = args.indexOf("--port");
        servePort = p >= 0 ? args.get(p + 1) : "8765";
        if (p >= 0) {
            args.set(p + 1, "0");
        } else {
            args.addAll(List.of("--port", "0"));
        }
        StringWriter both = new StringWriter();
        PrintWriter w = new PrintWriter(both, true);
        serve = Thread.ofPlatform()
                .name("docs-serve")
                .start(() -> ToolScoutCli.run(
                        args.toArray(String[]::new), new ByteArrayInputStream(new byte[0]), w, w, env()));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (serveUrl == null) {
            Matcher m = LISTENING.matcher(both.toString());
            if (m.find()) {
                serveUrl = m.group(1);
            } else if (!serve.isAlive() || System.nanoTime() > deadline) {
                return new Result(clean(both.toString()), 1, 0);
            } else {
                Thread.sleep(20);
            }
        }
        while (System.nanoTime() < deadline) {
            HttpResponse<String> ready = http.send(
                    HttpRequest.newBuilder(URI.create(serveUrl + "/readyz")).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (ready.statusCode() == 200) {
                return new Result("", 0, 0);
            }
            Thread.sleep(20);
        }
        return new Result("serve did not get ready in 60 s", 1, 0);
    }

    private Result curl(List<String> a) throws Exception {
        String method = null;
        String body = null;
        String url = null;
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < a.size(); i++) {
            String s = a.get(i);
            if (s.matches("-[sSN]+")) {
                continue;
            }
            switch (s) {
                case "-X", "--request" -> method = a.get(++i);
                case "-H", "--header" -> {
                    String h = a.get(++i);
                    int c = h.indexOf(':');
                    if (c <= 0) {
                        return new Result("curl: bad header '" + h + "'\n", 2, 0);
                    }
                    headers.put(h.substring(0, c).strip(), h.substring(c + 1).strip());
                }
                case "-d", "--data", "--data-raw", "--data-binary" -> body = a.get(++i);
                default -> {
                    if (s.startsWith("-")) {
                        throw new CannotRun("curl option '" + s + "' is not one the docs test knows");
                    }
                    if (!s.startsWith("http://") && !s.startsWith("https://")) {
                        // curl reads a stray word (a header split at its spaces) as a host name to fetch
                        return new Result("curl: (6) Could not resolve host: " + s + "\n", 6, 0);
                    }
                    if (url != null) {
                        throw new CannotRun("curl with several URLs");
                    }
                    url = s;
                }
            }
        }
        if (url == null) {
            return new Result("curl: no URL specified\n", 2, 0);
        }
        if (serveUrl != null) {
            url = url.replace("http://127.0.0.1:" + servePort, serveUrl)
                    .replace("http://localhost:" + servePort, serveUrl);
        }
        if (body != null && headers.keySet().stream().noneMatch(h -> h.equalsIgnoreCase("content-type"))) {
            headers.put("Content-Type", "application/x-www-form-urlencoded"); // curl's default for -d
        }
        HttpRequest.Builder b;
        try {
            b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60));
            headers.forEach(b::header);
        } catch (IllegalArgumentException e) {
            // what curl refuses before sending: a malformed URL or header (e.g. a header split at its spaces)
            return new Result("curl: (3) " + e.getMessage() + "\n", 3, 0);
        }
        String m = method != null ? method : body != null ? "POST" : "GET";
        b.method(m, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Result(clean(r.body()), 0, r.statusCode());
        } catch (java.net.ConnectException e) {
            return new Result("curl: (7) Failed to connect to " + url + "\n", 7, 0);
        }
    }

    private Map<String, String> env() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.remove("TOOLSCOUT_API_KEY");
        env.putAll(exported);
        return env;
    }

    private String clean(String output) {
        return output.replace(work + "/", "").replace(repo + "/", "");
    }

    /** The words of one command line after quotes and expansions, as a shell splits them. */
    List<String> words(String line) throws Exception {
        List<String> out = new ArrayList<>();
        StringBuilder cur = null;
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            if (Character.isWhitespace(c)) {
                if (cur != null) {
                    out.add(cur.toString());
                    cur = null;
                }
                i++;
            } else if (c == '#' && cur == null) {
                break;
            } else if (c == '&'
                    && (line.substring(i + 1).isBlank()
                            || line.substring(i + 1).strip().startsWith("#"))) {
                if (cur != null) {
                    out.add(cur.toString());
                    cur = null;
                }
                out.add("&");
                break;
            } else if (c == '|' || c == ';' || c == '<' || c == '>' || c == '`' || c == '&') {
                throw new CannotRun("shell syntax '" + c + "' is not supported by the docs test");
            } else if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                if (end < 0) {
                    throw new CannotRun("unterminated ' in: " + line);
                }
                cur = (cur == null ? new StringBuilder() : cur).append(line, i + 1, end);
                i = end + 1;
            } else if (c == '"') {
                if (line.startsWith("\"${", i) && line.indexOf("[@]}\"", i) > 0) {
                    int end = line.indexOf("[@]}\"", i);
                    String name = line.substring(i + 3, end);
                    if (cur != null) {
                        out.add(cur.toString());
                        cur = null;
                    }
                    out.addAll(var(name));
                    i = end + 5;
                    continue;
                }
                cur = cur == null ? new StringBuilder() : cur;
                i++;
                while (i < n && line.charAt(i) != '"') {
                    char d = line.charAt(i);
                    if (d == '\\' && i + 1 < n && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
                        cur.append(line.charAt(i + 1));
                        i += 2;
                    } else if (d == '$') {
                        int[] end = new int[1];
                        cur.append(String.join(" ", expansion(line, i, end)));
                        i = end[0];
                    } else {
                        cur.append(d);
                        i++;
                    }
                }
                if (i >= n) {
                    throw new CannotRun("unterminated \" in: " + line);
                }
                i++;
            } else if (c == '\\' && i + 1 < n) {
                cur = (cur == null ? new StringBuilder() : cur).append(line.charAt(i + 1));
                i += 2;
            } else if (c == '$') {
                int[] end = new int[1];
                List<String> value = expansion(line, i, end);
                // unquoted: split into words on white space, as a shell does
                List<String> split = new ArrayList<>();
                for (String v : value) {
                    for (String part : v.split("\\s+")) {
                        if (!part.isEmpty()) {
                            split.add(part);
                        }
                    }
                }
                for (int k = 0; k < split.size(); k++) {
                    cur = (cur == null ? new StringBuilder() : cur).append(split.get(k));
                    if (k < split.size() - 1) {
                        out.add(cur.toString());
                        cur = null;
                    }
                }
                i = end[0];
            } else {
                cur = (cur == null ? new StringBuilder() : cur).append(c);
                i++;
            }
        }
        if (cur != null) {
            out.add(cur.toString());
        }
        return out;
    }

    private List<String> expansion(String line, int at, int[] end) throws IOException {
        if (line.startsWith("$?", at)) {
            end[0] = at + 2;
            return List.of(Integer.toString(lastExit));
        }
        if (line.startsWith("$(", at)) {
            int close = line.indexOf(')', at);
            String inner = close < 0 ? "" : line.substring(at + 2, close).strip();
            if (!inner.equals("mktemp -d")) {
                throw new CannotRun("command substitution $(" + inner + ") is not supported by the docs test");
            }
            end[0] = close + 1;
            return List.of(Files.createTempDirectory(work, "mktemp").toString());
        }
        if (line.startsWith("${", at)) {
            int close = line.indexOf('}', at);
            end[0] = close + 1;
            return var(line.substring(at + 2, close));
        }
        Matcher m = NAME.matcher(line).region(at + 1, line.length());
        if (!m.lookingAt()) {
            end[0] = at + 1;
            return List.of("$");
        }
        end[0] = m.end();
        return var(m.group());
    }

    private List<String> var(String name) {
        List<String> v = vars.get(name);
        if (v == null) {
            throw new CannotRun("$" + name + " is not set (set it in a command block of the doc)");
        }
        return v;
    }

    static void copy(Path from, Path to) {
        try (var files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path t = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(t);
                } else if (!f.getFileName().toString().equals("lock")) {
                    Files.copy(f, t);
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (serve != null) {
            serve.interrupt();
            try {
                serve.join(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
