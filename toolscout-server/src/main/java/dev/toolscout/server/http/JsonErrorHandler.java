package dev.toolscout.server.http;

import dev.toolscout.mcp.gateway.JsonRpcGuard;
import dev.toolscout.server.http.api.HttpApi;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.List;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's error pages as JSON: what Jetty answers itself, before a request reaches a servlet or filter (a
 * request line or header it cannot parse, a URI it refuses). Its default is an HTML page that echoes the URI;
 * this says what the status means and nothing more, never a stack trace: a JSON-RPC error for the MCP endpoint,
 * {@code application/problem+json} for every other path (the HTTP API's).
 */
final class JsonErrorHandler extends ErrorHandler {
    private static final HttpField JSON_TYPE = new HttpField(HttpHeader.CONTENT_TYPE, "application/json");
    private static final HttpField PROBLEM_TYPE = new HttpField(HttpHeader.CONTENT_TYPE, "application/problem+json");

    JsonErrorHandler() {
        setShowStacks(false);
        setShowCauses(false);
        setShowOrigin(false);
        setShowMessageInTitle(false);
    }

    @Override
    protected boolean generateAcceptableResponse(
            Request request,
            Response response,
            Callback callback,
            String contentType,
            List<Charset> charsets,
            int code,
            String message,
            Throwable cause) {
        String path = request.getHttpURI() == null ? null : request.getHttpURI().getPath();
        if (path != null && path.startsWith(GatewayHttpServer.ENDPOINT)) {
            response.getHeaders().put(JSON_TYPE);
            response.write(true, ByteBuffer.wrap(body(code)), callback);
        } else {
            response.getHeaders().put(PROBLEM_TYPE);
            response.write(true, ByteBuffer.wrap(HttpApi.problemBody(code, JsonRpcGuard.reason(code))), callback);
        }
        return true;
    }

    private static byte[] body(int status) {
        return JsonRpcGuard.errorBody(
                null,
                status >= 500 ? JsonRpcGuard.INTERNAL_ERROR : JsonRpcGuard.INVALID_REQUEST,
                JsonRpcGuard.reason(status));
    }
}
