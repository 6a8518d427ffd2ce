/** Extra fields an error carries beside result, msg and code. */
export type ErrorData = Record<string, unknown>;

/** An error answered to the client in Zulip's envelope; the msg matches Zulip's text exactly. */
export class ApiError extends Error {
  constructor(
    readonly msg: string,
    readonly code = "BAD_REQUEST",
    readonly status = 400,
    readonly data: ErrorData = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(msg);
  }

  /** The JSON body: result, msg, code, then the extra fields. */
  body(): Record<string, unknown> {
    return { result: "error", msg: this.msg, code: this.code, ...this.data };
  }
}

/**
 * Not an error envelope: a page opened in a browser is sent to `location` instead (Zulip sends a
 * page that asks an API URL without credentials to the login page, so no password box pops up).
 */
export class Redirect extends Error {
  constructor(readonly location: string) {
    super(`redirect to ${location}`);
  }
}

/** A plain 400 BAD_REQUEST, Zulip's JsonableError. */
export function badRequest(msg: string, data: ErrorData = {}): ApiError {
  return new ApiError(msg, "BAD_REQUEST", 400, data);
}

/** `Missing 'x' argument` with var_name, Zulip's RequestVariableMissingError. */
export function missingArgument(name: string): ApiError {
  return new ApiError(`Missing '${name}' argument`, "REQUEST_VARIABLE_MISSING", 400, { var_name: name });
}

/** Both aliases of one parameter were sent. */
export function confusingArguments(a: string, b: string): ApiError {
  return new ApiError(`Can't decide between '${a}' and '${b}' arguments`, "REQUEST_CONFUSING_VAR", 400, {
    var_name1: a,
    var_name2: b,
  });
}

/** 401 with the Basic challenge header. */
export function unauthorized(msg = "Not logged in: API authentication or user session required", code = "UNAUTHORIZED"): ApiError {
  return new ApiError(msg, code, 401, {}, { "WWW-Authenticate": 'Basic realm="zulip"' });
}

/** 401 for a /json call without a session: Zulip asks for session authentication there, never Basic. */
export function sessionRequired(): ApiError {
  return new ApiError("Not logged in: API authentication or user session required", "UNAUTHORIZED", 401, {}, { "WWW-Authenticate": 'Session realm="zulip"' });
}

/** Zulip's CsrfFailureError: 403 CSRF_FAILED with Django's reason. */
export function csrfFailed(reason: string): ApiError {
  return new ApiError(`CSRF error: ${reason}`, "CSRF_FAILED", 403, { reason });
}

/** 404 with code BAD_REQUEST, Zulip's ResourceNotFoundError. */
export function notFound(msg: string): ApiError {
  return new ApiError(msg, "BAD_REQUEST", 404);
}

/** Caller is not an administrator. */
export function adminRequired(): ApiError {
  return new ApiError("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL", 400);
}

/** Caller is not an owner. */
export function ownerRequired(): ApiError {
  return new ApiError("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL", 400);
}

/** Zulip's RateLimitedError: 429 with the seconds to wait in `retry-after` and the Retry-After header. */
export function rateLimited(secs: number): ApiError {
  return new ApiError("API usage exceeded rate limit", "RATE_LIMIT_HIT", 429, { "retry-after": secs }, { "Retry-After": String(secs) });
}

/** `Bad value for 'x': <value>`, Zulip's RequestVariableConversionError: a value of the right type that is out of range. */
export function conversionError(name: string, badValue: string | number): ApiError {
  return new ApiError(`Bad value for '${name}': ${badValue}`, "REQUEST_VARIABLE_INVALID", 400, { var_name: name, bad_value: badValue });
}

/** The messages Zulip repeats across endpoints, each a plain 400 BAD_REQUEST. */
export const insufficientPermission = (): ApiError => badRequest("Insufficient permission");
/** A user group that does not exist or is not the caller's to see. */
export const invalidUserGroup = (): ApiError => badRequest("Invalid user group");
/** A user who does not exist or is not in the caller's realm. */
export const noSuchUser = (): ApiError => badRequest("No such user");
/** A target user who has been deactivated. */
export const userDeactivated = (): ApiError => badRequest("User is deactivated");
/** A channel that does not exist or that the caller may not see. */
export const invalidChannelId = (): ApiError => badRequest("Invalid channel ID");
/** Messages that do not exist or that the caller may not see. */
export const invalidMessages = (): ApiError => badRequest("Invalid message(s)");
