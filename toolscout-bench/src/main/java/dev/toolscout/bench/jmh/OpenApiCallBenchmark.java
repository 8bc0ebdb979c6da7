package dev.toolscout.bench.jmh;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.toolscout.agent.openapi.OpenApiExecutor;
import dev.toolscout.agent.openapi.OpenApiImporter;
import dev.toolscout.execution.ToolInvocation;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.Principal;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What calling an imported HTTP tool costs beyond the HTTP exchange, and what an import costs:
 *
 * <ul>
 *   <li>{@code executorCall}: {@link OpenApiExecutor#execute} of {@code GET /pets/{petId}} (path argument encoded,
 *       URL checked against the base URL, bearer credential from the environment, answer read under the cap,
 *       scrubbed of the secret and parsed as JSON) against a JDK HttpServer on loopback;
 *   <li>{@code directCall}: the same request sent with a plain JDK {@link HttpClient} and its body parsed, the
 *       floor the executor is compared with;
 *   <li>{@code importDocument}: {@link OpenApiImporter#parse} of a generated document of 500 operations, each
 *       with a path parameter, two query parameters and a JSON body by {@code $ref} (naming, reference
 *       expansion, schemas; the embedding of the tools is the catalog's, measured by {@code toolscout bench}).
 * </ul>
 *
 * Run with {@code scripts/jmh.sh OpenApiCallBenchmark} (docs/BENCHMARKS.md).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx1g"})
@State(Scope.Benchmark)
public class OpenApiCallBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "bench-Token-0123456789";

    private HttpServer server;
    private OpenApiExecutor executor;
    private HttpClient client;
    private ToolInvocation call;
    private URI direct;
    private ObjectNode document;

    @Setup
    public void setUp() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        byte[] pet = "{\"id\": 7, \"name\": \"Rex\", \"tag\": \"dog\"}".getBytes(StandardCharsets.UTF_8);
        server.createContext("/v1/pets/", ex -> {
            try (ex) {
                ex.getRequestBody().readAllBytes();
                ex.getResponseHeaders().add("Content-Type", "application/json");
                ex.sendResponseHeaders(
                        ("Bearer " + TOKEN).equals(ex.getRequestHeaders().getFirst("Authorization")) ? 200 : 401,
                        pet.length);
                try (OutputStream os = ex.getResponseBody()) {
                    os.write(pet);
                }
            }
        });
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
        ObjectNode doc = JSON.createObjectNode().put("openapi", "3.0.3");
        ObjectNode get = doc.putObject("paths")
                .putObject("/pets/{petId}")
                .putObject("get")
                .put("operationId", "showPetById")
                .put("summary", "Info for a specific pet");
        get.putArray("parameters")
                .addObject()
                .put("name", "petId")
                .put("in", "path")
                .put("required", true)
                .putObject("schema")
                .put("type", "string");
        OpenApiImporter.Imported imported = OpenApiImporter.parse(
                "bench.json",
                doc,
                "petstore",
                base,
                new dev.toolscout.agent.openapi.OpenApiAuth(
                        dev.toolscout.agent.openapi.OpenApiAuth.Type.BEARER, null, null, "TOKEN", null));
        executor = new OpenApiExecutor(
                n -> Optional.of(imported.source()), s -> s, Map.of("TOKEN", TOKEN), OpenApiExecutor.Settings.DEFAULTS);
        call = new ToolInvocation(
                imported.tools().get(0), JSON.createObjectNode().put("petId", "7"), Principal.ANONYMOUS, "bench");
        client = HttpClient.newHttpClient();
        direct = URI.create(base + "/pets/7");
        document = generated(500);
    }

    /** {@code n} operations over shared components, as real documents are built. */
    static ObjectNode generated(int n) {
        ObjectNode doc = JSON.createObjectNode().put("openapi", "3.1.0");
        doc.putArray("servers").addObject().put("url", "https://api.example.com/v1");
        ObjectNode schemas = doc.putObject("components").putObject("schemas");
        ObjectNode item = schemas.putObject("Item").put("type", "object");
        ObjectNode props = item.putObject("properties");
        props.putObject("name").put("type", "string").put("description", "The item's name");
        props.putObject("tags").put("type", "array").putObject("items").put("type", "string");
        props.putObject("owner").put("$ref", "#/components/schemas/Owner");
        ObjectNode owner = schemas.putObject("Owner").put("type", "object").putObject("properties");
        owner.putObject("id").put("type", "integer");
        owner.putObject("email").put("type", "string").put("format", "email");
        ObjectNode paths = doc.putObject("paths");
        for (int i = 0; i < n; i++) {
            ObjectNode op = paths.putObject("/resource" + i + "/{id}")
                    .putObject("post")
                    .put("operationId", "updateResource" + i)
                    .put("summary", "Update resource " + i + " by its id");
            var params = op.putArray("parameters");
            params.addObject()
                    .put("name", "id")
                    .put("in", "path")
                    .put("required", true)
                    .putObject("schema")
                    .put("type", "string");
            params.addObject()
                    .put("name", "dryRun")
                    .put("in", "query")
                    .putObject("schema")
                    .put("type", "boolean");
            params.addObject()
                    .put("name", "fields")
                    .put("in", "query")
                    .putObject("schema")
                    .put("type", "array")
                    .putObject("items")
                    .put("type", "string");
            op.putObject("requestBody")
                    .put("required", true)
                    .putObject("content")
                    .putObject("application/json")
                    .putObject("schema")
                    .put("$ref", "#/components/schemas/Item");
        }
        return doc;
    }

    @TearDown
    public void tearDown() {
        executor.close();
        client.close();
        server.stop(0);
    }

    @Benchmark
    public ToolResult executorCall() throws InterruptedException {
        ToolResult r = executor.execute(call);
        if (r.isError()) {
            throw new IllegalStateException(r.error());
        }
        return r;
    }

    @Benchmark
    public Object directCall() throws IOException, InterruptedException {
        HttpResponse<byte[]> r = client.send(
                HttpRequest.newBuilder(direct)
                        .header("Authorization", "Bearer " + TOKEN)
                        .header("Accept", "application/json")
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("HTTP " + r.statusCode());
        }
        return JSON.readTree(r.body());
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public OpenApiImporter.Imported importDocument() {
        return OpenApiImporter.parse("generated.json", document, "api", null, null);
    }
}
