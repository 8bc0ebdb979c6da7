package dev.toolscout.agent.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.toolscout.agent.Bulkhead;
import dev.toolscout.agent.openapi.OpenApiOperation.Param;
import dev.toolscout.execution.ToolExecutor;
import dev.toolscout.execution.ToolInvocation;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.openapi.OpenApiSourceStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls the tools imported from OpenAPI documents over HTTP: the tool's operation gives the method and the path
 * template, the model's arguments fill the path, query, header parameters and the JSON body, and the request
 * goes to the source's configured base URL with its credential.
 *
 * <p>What arguments can never do: change the host, port or scheme, or leave the base URL's path. A path
 * argument is percent-encoded as one segment ({@code /} is {@code %2F}), and {@code .}, {@code ..} and the empty
 * value are refused; the request URL is checked against the base URL before it is sent. A header argument can
 * never set the credential's header. Redirects are not followed (a redirect could carry the credential to
 * another host). The secret is read when the call is made (from the environment, or unsealed from the store),
 * sent only in its header, and taken out of any response text before the model sees it.
 *
 * <p>Limits (defaults in {@link Settings#DEFAULTS}): connect timeout, a deadline for the whole exchange, the
 * request body's and the response's size; an answer other than 2xx is a {@link ToolResult#error} with the
 * status and the first {@link Settings#errorExcerptChars} characters of its body. Thread-safe: one {@link
 * HttpClient} for every call.
 */
public final class OpenApiExecutor implements ToolExecutor, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OpenApiExecutor.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern TEMPLATE_VAR = Pattern.compile("\\{([^{}/]+)}");
    private static final String REDACTED = "***";
    private static final Pattern PERCENT_HEX = Pattern.compile("%[0-9A-F]{2}");

    /**
     * Limits on each call.
     *
     * @param connectTimeout how long to wait for the connection
     * @param requestTimeout how long the whole exchange may take, the response body included
     * @param maxRequestBytes the largest JSON body a call may send
     * @param maxResponseBytes the largest response body read; a larger 2xx answer is an error
     * @param errorExcerptChars how much of an error answer's body the model sees
     * @param maxConcurrentCalls the most calls in progress to one imported source (default 16)
     * @param maxTotalCalls the most calls in progress to all imported sources together (default 48)
     * @param maxCallWait how long a call waits for a free slot before it fails as busy (default 10 s)
     */
    public record Settings(
            Duration connectTimeout,
            Duration requestTimeout,
            int maxRequestBytes,
            int maxResponseBytes,
            int errorExcerptChars,
            int maxConcurrentCalls,
            int maxTotalCalls,
            Duration maxCallWait) {
        /**
         * 5 s to connect, 30 s per call, 1 MiB request body, 1 MiB response, 1,000 characters of an error; 16 calls
         * in progress per source and 48 in all (as for MCP upstreams), a 10 s wait for a slot.
         */
        public static final Settings DEFAULTS =
                new Settings(Duration.ofSeconds(5), Duration.ofSeconds(30), 1 << 20, 1 << 20, 1_000);

        public Settings {
            Objects.requireNonNull(connectTimeout, "connectTimeout");
            Objects.requireNonNull(requestTimeout, "requestTimeout");
            Objects.requireNonNull(maxCallWait, "maxCallWait");
            if (connectTimeout.isNegative()
                    || connectTimeout.isZero()
                    || requestTimeout.isNegative()
                    || requestTimeout.isZero()) {
                throw new IllegalArgumentException(
                        "timeouts must be positive, got: " + connectTimeout + ", " + requestTimeout);
            }
            if (maxRequestBytes < 1 || maxResponseBytes < 1 || errorExcerptChars < 1) {
                throw new IllegalArgumentException("size limits must be at least 1, got: " + maxRequestBytes + ", "
                        + maxResponseBytes + ", " + errorExcerptChars);
            }
            if (maxConcurrentCalls < 1 || maxTotalCalls < maxConcurrentCalls || maxTotalCalls > 10_000) {
                throw new IllegalArgumentException("call limits must be 1 <= per source <= total <= 10000, got: "
                        + maxConcurrentCalls + ", " + maxTotalCalls);
            }
        }

        /** The given timeouts and sizes, with the default call limits. */
        public Settings(
                Duration connectTimeout,
                Duration requestTimeout,
                int maxRequestBytes,
                int maxResponseBytes,
                int errorExcerptChars) {
            this(
                    connectTimeout,
                    requestTimeout,
                    maxRequestBytes,
                    maxResponseBytes,
                    errorExcerptChars,
                    16,
                    48,
                    Duration.ofSeconds(10));
        }
    }

    private final Function<String, Optional<OpenApiSource>> sources;
    private final UnaryOperator<String> unseal;
    private final Map<String, String> env;
    private final Settings settings;
    private final HttpClient client;
    /** Calls in progress per source (by the tool-name prefix), and over all sources. */
    private final Map<String, Bulkhead> perSource = new ConcurrentHashMap<>();

    private final Bulkhead allSources;

    /**
     * @param sources the imported source of a name (the part of a tool's name before {@code __}), read at each
     *     call so that a new import takes effect at once
     * @param unseal opens a sealed secret (the data directory's {@code SecretBox::unseal})
     * @param env the environment a credential's variable is read from ({@code System.getenv()})
     */
    public OpenApiExecutor(
            Function<String, Optional<OpenApiSource>> sources,
            UnaryOperator<String> unseal,
            Map<String, String> env,
            Settings settings) {
        this.sources = Objects.requireNonNull(sources, "sources");
        this.unseal = Objects.requireNonNull(unseal, "unseal");
        this.env = Map.copyOf(env);
        this.settings = Objects.requireNonNull(settings, "settings");
        this.client = HttpClient.newBuilder()
                .connectTimeout(settings.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.allSources = new Bulkhead(
                "the imported HTTP APIs", "maxTotalCalls", settings.maxTotalCalls(), settings.maxCallWait());
    }

    /** An executor over the sources stored with the catalog ({@link OpenApiSourceStore#loadOpenApiSource}). */
    public static OpenApiExecutor fromStore(
            OpenApiSourceStore store, UnaryOperator<String> unseal, Map<String, String> env, Settings settings) {
        Map<String, Parsed> cache = new ConcurrentHashMap<>();
        return new OpenApiExecutor(
                name -> store.loadOpenApiSource(name).map(json -> {
                    Parsed p = cache.get(name);
                    if (p == null || !p.json().equals(json)) {
                        p = new Parsed(json, OpenApiSourceJson.read(json));
                        cache.put(name, p);
                    }
                    return p.source();
                }),
                unseal,
                env,
                settings);
    }

    private record Parsed(String json, OpenApiSource source) {}

    /** A call the model can fix: its arguments break a rule. */
    private static final class BadCall extends Exception {
        private static final long serialVersionUID = 1L;

        BadCall(String message) {
            super(message, null, false, false);
        }
    }

    @Override
    @SuppressWarnings("try") // the bulkheads' slots are held for the request's span, not used in it
    public ToolResult execute(ToolInvocation call) throws InterruptedException {
        String tool = call.tool().fullName();
        OpenApiSource source = sources.apply(call.tool().name().source()).orElse(null);
        OpenApiOperation op = source == null ? null : source.operations().get(tool);
        if (op == null) {
            return ToolResult.error(
                    "tool '" + tool + "' is not executable here: no imported OpenAPI operation has this "
                            + "name (import the document again with toolscout index --openapi)");
        }
        String secret;
        try {
            secret = secret(source);
        } catch (IllegalStateException e) {
            return ToolResult.error(e.getMessage());
        }
        HttpRequest request;
        String shown;
        try {
            Built b = build(source, op, call, secret);
            request = b.request();
            shown = op.method() + " " + b.pathAndQuery();
        } catch (BadCall e) {
            return ToolResult.error(tool + ": " + e.getMessage());
        }
        List<String> secrets = secrets(source.auth(), secret);
        String prefix = call.tool().name().source();
        Bulkhead mine = perSource.computeIfAbsent(
                prefix,
                p -> new Bulkhead(
                        "the imported HTTP API '" + p + "'",
                        "maxConcurrentCalls",
                        settings.maxConcurrentCalls(),
                        settings.maxCallWait()));
        HttpResponse<Body> response;
        // a slot of the source's and of the shared bulkhead, so one slow API holds a known number of calls
        try (Bulkhead.Slot one = mine.enter();
                Bulkhead.Slot all = allSources.enter()) {
            CompletableFuture<HttpResponse<Body>> f =
                    client.sendAsync(request, info -> new CappedBody(settings.maxResponseBytes()));
            try {
                response = f.get(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                f.cancel(true);
                throw e;
            } catch (TimeoutException e) {
                f.cancel(true);
                return ToolResult.error(shown + " did not answer within " + seconds(settings.requestTimeout())
                        + " (the request timeout)");
            } catch (ExecutionException e) {
                return ToolResult.error(scrub(failure(shown, source, e.getCause()), secrets));
            }
        } catch (Bulkhead.Full e) {
            return ToolResult.error(shown + " was not sent: " + e.getMessage());
        }
        int status = response.statusCode();
        Body body = response.body();
        String text = scrub(body.text(charset(response)), secrets);
        LOG.debug("{} {}: {} ({} bytes)", op.method(), op.path(), status, body.bytes().length);
        if (status < 200 || status > 299) {
            String excerpt = oneLine(text);
            if (excerpt.length() > settings.errorExcerptChars()) {
                excerpt = excerpt.substring(0, settings.errorExcerptChars()) + "...";
            }
            return ToolResult.error("HTTP " + status + " from " + shown + (excerpt.isBlank() ? "" : ": " + excerpt));
        }
        if (body.truncated()) {
            return ToolResult.error(String.format(
                    Locale.ROOT,
                    "the answer of %s is larger than the limit of %,d bytes",
                    shown,
                    settings.maxResponseBytes()));
        }
        if (text.isEmpty()) {
            return ToolResult.of(TextNode.valueOf("HTTP " + status + ": no content"));
        }
        String type = response.headers().firstValue("content-type").orElse("").toLowerCase(Locale.ROOT);
        if (type.contains("json")) {
            try {
                return ToolResult.of(MAPPER.readTree(text));
            } catch (IOException notJson) {
                // a server that says JSON and sends something else: the model gets the text
            }
        }
        return ToolResult.of(TextNode.valueOf(text));
    }

    private record Built(HttpRequest request, String pathAndQuery) {}

    private Built build(OpenApiSource source, OpenApiOperation op, ToolInvocation call, String secret) throws BadCall {
        ObjectNode args = call.arguments();
        Set<String> known = new HashSet<>();
        op.params().forEach(p -> known.add(p.argument()));
        if (op.bodyArgument() != null) {
            known.add(op.bodyArgument());
        }
        for (String name : (Iterable<String>) args::fieldNames) {
            if (!known.contains(name)) {
                throw new BadCall("unknown argument '" + name + "' (the arguments are: "
                        + known.stream().sorted().toList() + ")");
            }
        }
        for (String r : call.tool().requiredParameters()) {
            if (!present(args.get(r))) {
                throw new BadCall("argument '" + r + "' is required");
            }
        }
        Map<String, String> pathValues = new java.util.HashMap<>();
        StringBuilder query = new StringBuilder();
        List<String[]> headers = new ArrayList<>();
        for (Param p : op.params()) {
            JsonNode v = args.get(p.argument());
            if (!present(v)) {
                continue;
            }
            switch (p.in()) {
                case PATH -> {
                    String s = scalarOrList(p, v);
                    if (s.isEmpty() || s.equals(".") || s.equals("..")) {
                        throw new BadCall("path argument '" + p.argument() + "' must not be empty, '.' or '..', got: '"
                                + s + "'");
                    }
                    pathValues.put(p.name(), encode(s));
                }
                case QUERY -> query(query, p, v);
                case HEADER -> {
                    if (source.auth() != null && source.auth().headerName().equalsIgnoreCase(p.name())) {
                        throw new BadCall(
                                "header argument '" + p.argument() + "' would replace the credential's header");
                    }
                    String s = scalarOrList(p, v);
                    if (s.chars().anyMatch(c -> c < 0x20 && c != '\t' || c == 0x7f)) {
                        throw new BadCall("header argument '" + p.argument() + "' must not hold control characters");
                    }
                    headers.add(new String[] {p.name(), s});
                }
                default -> throw new IllegalStateException("unknown parameter location " + p.in());
            }
        }
        Matcher m = TEMPLATE_VAR.matcher(op.path());
        StringBuilder path = new StringBuilder();
        while (m.find()) {
            String value = pathValues.get(m.group(1));
            if (value == null) {
                throw new BadCall("the path " + op.path() + " needs a value for {" + m.group(1) + "}");
            }
            m.appendReplacement(path, Matcher.quoteReplacement(value));
        }
        m.appendTail(path);
        String resolved;
        try {
            // a stored template may hold dot segments (an import before they were resolved): send what a server
            // resolves
            resolved = BaseUrls.removeDotSegments(path.toString());
        } catch (IllegalArgumentException e) {
            throw new BadCall("the path " + op.path() + " would leave the API's base URL " + source.baseUrl()
                    + " (its '..' climbs above it)");
        }
        String pathAndQuery = resolved + (query.isEmpty() ? "" : "?" + query);
        URI base = source.baseUrl();
        URI uri;
        try {
            uri = new URI(base + pathAndQuery);
        } catch (java.net.URISyntaxException e) {
            throw new BadCall("the arguments make no valid URL: " + e.getReason());
        }
        // the encoding above keeps every argument inside the base URL; this says so before anything is sent
        String basePath = base.getRawPath();
        if (!base.getScheme().equals(uri.getScheme())
                || !base.getRawAuthority().equals(uri.getRawAuthority())
                || !(uri.getRawPath().equals(basePath) || uri.getRawPath().startsWith(basePath + "/"))) {
            throw new BadCall("the arguments would leave the API's base URL " + base);
        }
        HttpRequest.Builder rb = HttpRequest.newBuilder(uri)
                .timeout(settings.requestTimeout())
                .header("Accept", "application/json, text/plain;q=0.9, */*;q=0.5")
                .header("User-Agent", "toolscout");
        for (String[] h : headers) {
            try {
                rb.header(h[0], h[1]);
            } catch (IllegalArgumentException e) {
                throw new BadCall("header '" + h[0] + "' cannot be set: " + e.getMessage());
            }
        }
        if (source.auth() != null) {
            rb.setHeader(source.auth().headerName(), headerValue(source.auth(), secret));
        }
        HttpRequest.BodyPublisher publisher = HttpRequest.BodyPublishers.noBody();
        if (op.bodyArgument() != null && present(args.get(op.bodyArgument()))) {
            byte[] json;
            try {
                json = MAPPER.writeValueAsBytes(args.get(op.bodyArgument()));
            } catch (IOException e) {
                throw new BadCall("the body cannot be written as JSON: " + e.getMessage());
            }
            if (json.length > settings.maxRequestBytes()) {
                throw new BadCall(String.format(
                        Locale.ROOT,
                        "the body is %,d bytes, more than the limit of %,d bytes",
                        json.length,
                        settings.maxRequestBytes()));
            }
            publisher = HttpRequest.BodyPublishers.ofByteArray(json);
            rb.header("Content-Type", "application/json");
        }
        return new Built(rb.method(op.method(), publisher).build(), pathAndQuery);
    }

    private static boolean present(JsonNode v) {
        return v != null && !v.isNull() && !v.isMissingNode();
    }

    /** A scalar as text, an array of scalars comma-separated (the {@code simple} style); objects are refused. */
    private static String scalarOrList(Param p, JsonNode v) throws BadCall {
        if (v.isValueNode()) {
            return v.asText();
        }
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            for (JsonNode i : v) {
                if (!i.isValueNode()) {
                    throw new BadCall(
                            p.in().id() + " argument '" + p.argument() + "' must be a value or a list of values");
                }
                items.add(i.asText());
            }
            return String.join(",", items);
        }
        throw new BadCall(p.in().id() + " argument '" + p.argument() + "' must be a value or a list of values, got an "
                + "object");
    }

    private static void query(StringBuilder q, Param p, JsonNode v) throws BadCall {
        if (v.isObject()) {
            for (Map.Entry<String, JsonNode> e : v.properties()) {
                if (!e.getValue().isValueNode()) {
                    throw new BadCall("query argument '" + p.argument() + "' may hold only values, got an object at '"
                            + e.getKey() + "'");
                }
                String name = p.deepObject() ? p.name() + "[" + e.getKey() + "]" : e.getKey();
                pair(q, name, e.getValue().asText());
            }
        } else if (v.isArray() && p.explode()) {
            for (JsonNode i : v) {
                if (!i.isValueNode()) {
                    throw new BadCall("query argument '" + p.argument() + "' must be a list of values");
                }
                pair(q, p.name(), i.asText());
            }
        } else {
            pair(q, p.name(), scalarOrList(p, v));
        }
    }

    private static void pair(StringBuilder q, String name, String value) {
        if (!q.isEmpty()) {
            q.append('&');
        }
        q.append(encode(name)).append('=').append(encode(value));
    }

    /** Percent-encodes everything but RFC 3986's unreserved characters, so a value is one segment or one value. */
    static String encode(String s) {
        StringBuilder sb = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '.'
                    || c == '_'
                    || c == '~') {
                sb.append((char) c);
            } else {
                sb.append('%')
                        .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return sb.toString();
    }

    /** The credential's secret, read now; the message names where it should be, never a value. */
    private String secret(OpenApiSource source) {
        OpenApiAuth a = source.auth();
        if (a == null) {
            return null;
        }
        if (a.secretEnv() != null) {
            String v = env.get(a.secretEnv());
            if (v == null || v.isBlank()) {
                throw new IllegalStateException("the API '" + source.name() + "' is called with a credential from the "
                        + "environment variable " + a.secretEnv() + ", which is not set where ToolScout runs");
            }
            return v;
        }
        try {
            return unseal.apply(a.sealedSecret());
        } catch (RuntimeException e) {
            LOG.warn("OpenAPI source '{}': the sealed credential cannot be opened: {}", source.name(), e.getMessage());
            throw new IllegalStateException("the API '" + source.name() + "' has a stored credential that cannot be "
                    + "opened here (sealed with another key); import it again with the credential");
        }
    }

    private static String headerValue(OpenApiAuth a, String secret) {
        return switch (a.type()) {
            case BEARER -> "Bearer " + secret;
            case HEADER -> secret;
            case BASIC ->
                "Basic "
                        + Base64.getEncoder()
                                .encodeToString((a.username() + ":" + secret).getBytes(StandardCharsets.UTF_8));
        };
    }

    /**
     * The texts to take out of answers: the secret and, for basic authentication, {@code user:secret}, each as it is,
     * in base64 (standard and URL-safe alphabets, with and without padding) and percent-encoded (upper- and
     * lower-case hex; a space as {@code +} or {@code %20}). Longest first, so a longer form is never left half-scrubbed
     * by a shorter one inside it. What is not caught is listed in docs/OPENAPI.md.
     */
    private static List<String> secrets(OpenApiAuth a, String secret) {
        if (a == null || secret == null) {
            return List.of();
        }
        List<String> plain = new ArrayList<>(List.of(secret));
        if (a.type() == OpenApiAuth.Type.BASIC) {
            plain.add(a.username() + ":" + secret);
        }
        Set<String> out = new HashSet<>();
        for (String p : plain) {
            byte[] bytes = p.getBytes(StandardCharsets.UTF_8);
            String std = Base64.getEncoder().encodeToString(bytes);
            String url = Base64.getUrlEncoder().encodeToString(bytes);
            String form = java.net.URLEncoder.encode(p, StandardCharsets.UTF_8);
            String pct = form.replace("+", "%20");
            out.addAll(List.of(
                    p,
                    std,
                    std.replaceAll("=+$", ""),
                    url,
                    url.replaceAll("=+$", ""),
                    form,
                    pct,
                    lowerHex(form),
                    lowerHex(pct)));
        }
        List<String> sorted = new ArrayList<>(out);
        sorted.sort(java.util.Comparator.comparingInt(String::length).reversed().thenComparing(x -> x));
        return sorted;
    }

    private static String lowerHex(String percentEncoded) {
        return PERCENT_HEX.matcher(percentEncoded).replaceAll(r -> r.group().toLowerCase(Locale.ROOT));
    }

    /** Takes the secrets out of text the model or a log will see (an API may echo the request's headers). */
    private static String scrub(String text, List<String> secrets) {
        String out = text;
        for (String s : secrets) {
            if (s.length() >= 4) {
                out = out.replace(s, REDACTED);
            }
        }
        return out;
    }

    private String failure(String shown, OpenApiSource source, Throwable cause) {
        if (cause instanceof HttpConnectTimeoutException) {
            return "could not connect to " + source.baseUrl().getAuthority() + " within "
                    + seconds(settings.connectTimeout()) + " (the connect timeout) for " + shown;
        }
        if (cause instanceof HttpTimeoutException) {
            return shown + " did not answer within " + seconds(settings.requestTimeout()) + " (the request timeout)";
        }
        if (cause instanceof ConnectException) {
            return "could not connect to " + source.baseUrl().getAuthority() + " for " + shown
                    + " (connection refused or " + "unreachable)";
        }
        return shown + " failed: "
                + (cause == null
                        ? "unknown error"
                        : cause.getClass().getSimpleName()
                                + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private static Charset charset(HttpResponse<?> r) {
        String type = r.headers().firstValue("content-type").orElse("");
        Matcher m = Pattern.compile("(?i)charset=\"?([^;\"\\s]+)").matcher(type);
        if (m.find()) {
            try {
                return Charset.forName(m.group(1));
            } catch (IllegalArgumentException unknown) {
                return StandardCharsets.UTF_8;
            }
        }
        return StandardCharsets.UTF_8;
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }

    @Override
    public void close() {
        client.close();
    }

    /** A response body read up to a limit: what came, and whether there was more. */
    private record Body(byte[] bytes, boolean truncated) {
        String text(Charset cs) {
            return new String(bytes, cs);
        }
    }

    /** Reads a body into memory up to {@code cap} bytes, then cancels the rest of it. */
    private static final class CappedBody implements HttpResponse.BodySubscriber<Body> {
        private final int cap;
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
        private final CompletableFuture<Body> result = new CompletableFuture<>();
        private Flow.Subscription subscription;

        CappedBody(int cap) {
            this.cap = cap;
        }

        @Override
        public CompletionStage<Body> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer b : items) {
                int room = cap - buf.size();
                if (b.remaining() > room) {
                    byte[] part = new byte[room];
                    b.get(part);
                    buf.writeBytes(part);
                    result.complete(new Body(buf.toByteArray(), true));
                    subscription.cancel();
                    return;
                }
                byte[] all = new byte[b.remaining()];
                b.get(all);
                buf.writeBytes(all);
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(new Body(buf.toByteArray(), false));
        }
    }
}
