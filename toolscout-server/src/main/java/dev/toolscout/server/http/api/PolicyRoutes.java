package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessPolicyJson;
import dev.toolscout.access.PolicyCheck;
import dev.toolscout.mcp.gateway.GatewayAuth;
import dev.toolscout.model.Principal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code GET|PUT /v1/policy}: the access policy, for admins. A policy is checked as {@code toolscout policy set}
 * checks it: a rule that matches no known tool, source, category or principal (the API keys' users, groups and
 * spaces) is refused, unless {@code ?allow_unmatched=true}, since a misspelt deny leaves access wider than
 * meant. A body that names no default and no rule (it allows everything: {@code {}} by accident, say) is
 * refused unless {@code ?replace=empty}. Stored (durable) before the answer, and applied from the next request on.
 */
final class PolicyRoutes implements RouteGroup {
    private static final String EMPTY = "empty";
    /** The rule an empty body breaks, as the problem names it. */
    static final String EMPTY_RULE =
            "a policy names a default or at least one rule; an empty one needs " + "?replace=empty";

    private final GatewayAuth auth;

    PolicyRoutes(GatewayAuth auth) {
        this.auth = auth;
    }

    @Override
    public List<Endpoint> routes() {
        return List.of(
                Endpoint.get("/v1/policy", "getPolicy")
                        .tag("policy")
                        .access(Endpoint.Access.ADMIN)
                        .summary("The access policy in force")
                        .response(200, "The policy, as docs/ACCESS_POLICY.md writes it", "Policy")
                        .handle(c -> Reply.json(
                                AccessPolicyJson.toJson(c.backend().scout().policy()))),
                Endpoint.put("/v1/policy", "putPolicy")
                        .tag("policy")
                        .access(Endpoint.Access.ADMIN)
                        .summary("Check and store the access policy")
                        .description(
                                "Refused when a rule matches nothing known (the problem names the rule, the field and the "
                                        + "value, and the closest known value), unless allow_unmatched=true; and when the body names no "
                                        + "default and no rule (it would allow everything), unless replace=empty.")
                        .query(
                                "allow_unmatched",
                                "Store it even when rules match nothing yet (default false)",
                                OpenApi.schema("{\"type\": \"boolean\"}"))
                        .query(
                                "replace",
                                "empty: store a policy with no default and no rule (everyone may use every tool); "
                                        + "without it such a body is refused",
                                OpenApi.schema("{\"type\": \"string\", \"enum\": [\"empty\"]}"))
                        .request("Policy")
                        .response(200, "Stored; applies from the next request on", "Policy")
                        .handle(this::put));
    }

    private Reply put(Call c) {
        String allow = c.query("allow_unmatched");
        if (allow != null && !allow.equals("true") && !allow.equals("false")) {
            throw ApiProblem.invalid(
                    "allow_unmatched",
                    "true or false",
                    allow,
                    "query parameter allow_unmatched must be true or false, got: '" + Fields.shown(allow) + "'");
        }
        String replace = c.query("replace");
        if (replace != null && !replace.equals(EMPTY)) {
            throw ApiProblem.invalid(
                    "replace",
                    "empty, or absent",
                    replace,
                    "query parameter replace must be 'empty' (or absent), got: '" + Fields.shown(replace) + "'");
        }
        JsonNode body = c.json();
        AccessPolicy policy;
        try {
            policy = AccessPolicyJson.fromJson(body, "the policy");
        } catch (IllegalArgumentException e) {
            throw ApiProblem.invalid("body", "docs/ACCESS_POLICY.md, File format", (JsonNode) null, e.getMessage());
        }
        // after the parse, so an unknown field is named as such
        boolean empty = AccessPolicyJson.saysNothing(body);
        if (empty && replace == null) {
            throw ApiProblem.invalid(
                    "body",
                    EMPTY_RULE,
                    body,
                    "the policy names no default and no rule, so it would let "
                            + "every principal use every tool; nothing was stored (send ?replace=empty to store it, or say "
                            + "{\"default\": \"allow\"} outright)");
        }
        if (!empty && replace != null) {
            throw ApiProblem.invalid(
                    "replace",
                    "only with a body that names no default and no rule",
                    replace,
                    "replace=empty stores an empty policy, but the body names a default or a rule; nothing was stored "
                            + "(drop replace=empty to store this policy)");
        }
        Set<String> users = new TreeSet<>();
        Set<String> groups = new TreeSet<>();
        Set<String> spaces = new TreeSet<>();
        for (Principal p : auth.keyPrincipals()) {
            add(users, p.user());
            add(groups, p.group());
            add(spaces, p.space());
        }
        List<PolicyCheck.Unmatched> unmatched = c.backend().scout().checkPolicy(policy, users, groups, spaces);
        if (!unmatched.isEmpty() && !"true".equals(allow)) {
            PolicyCheck.Unmatched u = unmatched.get(0);
            throw ApiProblem.invalid(
                    "rules[" + u.rule() + "]." + u.field(),
                    "matches a known " + u.field(),
                    u.value(),
                    unmatched.size() + " of " + policy.rules().size() + " rules match nothing; first: " + u.message()
                            + "; nothing was stored (allow_unmatched=true stores it for tools or principals that come later)");
        }
        c.backend().scout().setPolicy(policy);
        return Reply.json(AccessPolicyJson.toJson(policy));
    }

    private static void add(Set<String> into, String v) {
        if (v != null && !v.isBlank()) {
            into.add(v);
        }
    }

    @Override
    public Map<String, JsonNode> schemas() {
        return Map.of("Policy", OpenApi.schema("""
        {"type": "object", "additionalProperties": false,
         "description": "An access policy (docs/ACCESS_POLICY.md)",
         "properties": {
          "default": {"type": "string", "enum": ["allow", "deny"]},
          "spaces": {"type": "object", "additionalProperties": {"type": ["string", "null"]}},
          "rules": {"type": "array", "items": {
            "type": "object", "required": ["effect"], "additionalProperties": false,
            "properties": {"effect": {"type": "string", "enum": ["allow", "deny"]},
                           "tool": {"type": "string"}, "source": {"type": "string"}, "category": {"type": "string"},
                           "user": {"type": "string"}, "group": {"type": "string"}, "space": {"type": "string"}}}}}}"""));
    }
}
