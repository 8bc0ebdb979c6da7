package dev.toolscout.agent.openapi;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** The rules for an imported API's base URL. */
final class BaseUrls {
    private BaseUrls() {}

    /** Parses and checks a base URL given as text; the message names the rule and the value. */
    static URI parse(String text) {
        try {
            return check(new URI(text.strip()));
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    "base URL is not a valid URL (" + e.getReason() + "), got: '" + text + "'", e);
        }
    }

    /**
     * An absolute http(s) URL with a host, no user info (credentials are configured apart, never in a URL), no
     * query and no fragment; the path without its trailing slash.
     */
    static URI check(URI u) {
        if (u == null) {
            throw new IllegalArgumentException("base URL is required");
        }
        String scheme = u.getScheme() == null ? null : u.getScheme().toLowerCase(Locale.ROOT);
        if (!"http".equals(scheme) && !"https".equals(scheme)) {
            throw new IllegalArgumentException("base URL must be an absolute http or https URL, got: '" + u + "'");
        }
        if (u.getHost() == null || u.getHost().isEmpty()) {
            throw new IllegalArgumentException("base URL must name a host, got: '" + u + "'");
        }
        if (u.getRawUserInfo() != null) {
            throw new IllegalArgumentException("base URL must not hold a user or password (configure a credential "
                    + "instead), got a URL with user info for host '" + u.getHost() + "'");
        }
        if (u.getRawQuery() != null || u.getRawFragment() != null) {
            throw new IllegalArgumentException("base URL must have no query or fragment, got: '" + u + "'");
        }
        String path = u.getRawPath() == null ? "" : u.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        for (String seg : path.split("/", -1)) {
            if (seg.equals(".") || seg.equals("..")) {
                throw new IllegalArgumentException(
                        "base URL path must not hold '.' or '..' segments, got: '" + u + "'");
            }
        }
        try {
            return new URI(scheme + "://" + u.getRawAuthority() + path);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("base URL is not a valid URL, got: '" + u + "'", e);
        }
    }

    /**
     * A path relative to the base URL (a document's path template, or one filled with arguments) with its dot
     * segments removed as RFC 3986 section 5.2.4 does, so what is sent is what a server resolves. A segment counts as
     * a dot segment also when its dots are percent-encoded ({@code %2e}, either case) or when it carries a {@code ;}
     * parameter ({@code ..;x}, which some servers resolve as {@code ..}).
     *
     * @throws IllegalArgumentException when a {@code ..} would climb above the base URL's path; the message names
     *     the path
     */
    static String removeDotSegments(String path) {
        java.util.ArrayDeque<String> out = new java.util.ArrayDeque<>();
        String[] segs = path.split("/", -1);
        boolean trailingSlash = false;
        for (int i = 1; i < segs.length; i++) { // segs[0] is the empty text before the leading '/'
            String dots = dots(segs[i]);
            trailingSlash = dots != null;
            if (".".equals(dots)) {
                continue;
            }
            if ("..".equals(dots)) {
                if (out.isEmpty()) {
                    throw new IllegalArgumentException("path '" + path + "' climbs above the base URL with '..'");
                }
                out.removeLast();
                continue;
            }
            out.addLast(segs[i]);
        }
        String joined = "/" + String.join("/", out);
        return trailingSlash && !out.isEmpty() ? joined + "/" : joined;
    }

    /** {@code "."} or {@code ".."} when {@code seg} is a dot segment in any spelling, else {@code null}. */
    private static String dots(String seg) {
        int semi = seg.indexOf(';');
        String s = (semi >= 0 ? seg.substring(0, semi) : seg).replaceAll("(?i)%2e", ".");
        return s.equals(".") || s.equals("..") ? s : null;
    }
}
