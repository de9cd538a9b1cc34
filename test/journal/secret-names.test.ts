import { describe, expect, it } from "vitest";
import { secretNames, wordsOf } from "../../engine/serve/journal/secret-names.js";

const names = secretNames(["accessCode"]);

describe("secret names", () => {
  it("reads a name as words whatever its case or separators", () => {
    expect(wordsOf("accessToken")).toEqual(["access", "token"]);
    expect(wordsOf("ACCESS_TOKEN")).toEqual(["access", "token"]);
    expect(wordsOf("access-token")).toEqual(["access", "token"]);
    expect(wordsOf("client.secret")).toEqual(["client", "secret"]);
    expect(wordsOf("APIKey")).toEqual(["api", "key"]);
    expect(wordsOf("X-Amz-Security-Token")).toEqual(["x", "amz", "security", "token"]);
  });

  it.each([
    "tokens",
    "pwd",
    "credentials",
    "auth",
    "aws_secret_access_key",
    "jwt",
    "X-Auth",
    "X-Session",
    "accessToken",
    "access-token",
    "ACCESS_TOKEN",
    "access.token",
    "accesstoken",
    "client.secret",
    "clientSecret",
    "CLIENT_SECRET",
    "password",
    "Passwords",
    "passwd",
    "passphrase",
    "password_confirmation",
    "newPassword",
    "mysql_pwd",
    "db-pwd",
    "apiKey",
    "api_key",
    "x-api-key",
    "APIKey",
    "apikey",
    "privateKey",
    "secretAccessKey",
    "SecretString",
    "token_value",
    "authorization",
    "Proxy-Authorization",
    "cookie",
    "Set-Cookie",
    "bearer",
    "sessionId",
    "session_token",
    "githubToken",
    "refresh_tokens",
    "basic_auth",
    "aws_credentials",
    "creds",
    "jwtToken",
    "pin",
    "PIN",
    "cardPin",
    "card_pin",
    "card-pin",
    "CARD_PIN",
    "pin_code",
    "pinCode",
    "otp",
    "OTP",
    "X-OTP",
    "otpCode",
    "otp_value",
    "totp",
    "sms_otp",
  ])("redacts the field %s", (name) => {
    expect(names.field(name)).toBe(true);
    expect(names.param(name)).toBe(true);
  });

  it.each([
    "author",
    "authors",
    "authority",
    "authMethod",
    "auth_type",
    "authenticated",
    "oauth",
    "keyboard",
    "monkey",
    "key",
    "keys",
    "tokenizer",
    "token_type",
    "tokenCount",
    "token_expires_in",
    "tokenUrl",
    "secretName",
    "possession",
    "sessions",
    "session_count",
    "title",
    "signature",
    "sig",
    "passenger",
    "credentialId",
    "cookieConsent",
    "",
    "pageToken",
    "nextPageToken",
    "next_page_token",
    "NextToken",
    "ContinuationToken",
    "syncToken",
    "Idempotency-Key",
    "spin",
    "pinned",
    "pinyin",
    "pin_count",
    "pinnedAt",
    "hotpot",
    "option",
    "output",
    "otpEnabled",
    "zip_code",
    "country_code",
  ])("keeps the field %s", (name) => {
    expect(names.field(name)).toBe(false);
  });

  it("reads key, sig and signature as secrets only as query or form parameters", () => {
    for (const name of ["key", "KEY", "sig", "signature"]) {
      expect(names.param(name)).toBe(true);
      expect(names.field(name)).toBe(false);
    }
    for (const name of ["keyboard", "monkey", "keys", "signal", "design"]) expect(names.param(name)).toBe(false);
  });

  it("matches the manifest's names in any style, and as the end of a longer name", () => {
    for (const name of ["accessCode", "access_code", "ACCESS-CODE", "userAccessCode", "accesscode"]) expect(names.field(name)).toBe(true);
    for (const name of ["access", "code", "accessCodes", "accessCodeHint"]) expect(names.field(name)).toBe(false);
  });

  it("does not take words prose uses for other things as secrets before a colon in free text", () => {
    expect(names.prose("Session")).toBe(false);
    expect(names.prose("auth")).toBe(false);
    expect(names.prose("Password")).toBe(true);
    expect(names.prose("key")).toBe(false);
  });

  it("knows a plural token name holds a count", () => {
    expect(names.counts("max_tokens")).toBe(true);
    expect(names.counts("tokens")).toBe(true);
    expect(names.counts("token")).toBe(false);
  });
});
