//! The verification resource (get and cancel), the magic link and the SILENT channel's calls,
//! against a scripted transport: what each request holds and how each answer parses, unknown
//! values of the open enums included.

use contact_verify::*;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

const REQUEST_ID: &str = "0190a7c2-0000-7000-8000-000000000001";

/// Answers every request with one status and body, and keeps the requests.
#[derive(Clone)]
struct Scripted {
    status: u16,
    body: Arc<Mutex<Value>>,
    requests: Arc<Mutex<Vec<HttpRequest>>>,
}

impl Scripted {
    fn new(status: u16, body: Value) -> Self {
        Scripted {
            status,
            body: Arc::new(Mutex::new(body)),
            requests: Arc::default(),
        }
    }

    fn client(&self) -> Client {
        Client::builder("http://cv.test", "k").transport(self.clone()).build()
    }

    fn answer(&self, body: Value) {
        *self.body.lock().unwrap() = body;
    }

    fn request(&self, i: usize) -> (String, String, Option<Value>) {
        let r = self.requests.lock().unwrap()[i].clone();
        let body = r.body.as_ref().map(|b| serde_json::from_slice(b).unwrap());
        (r.method.to_string(), r.url, body)
    }
}

impl Transport for Scripted {
    fn call(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        self.requests.lock().unwrap().push(request);
        Ok(HttpResponse {
            status: self.status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: self.body.lock().unwrap().to_string().into_bytes(),
        })
    }
}

fn resource() -> Value {
    json!({ "data": {
        "requestId": REQUEST_ID, "channel": "EMAIL", "status": "verified", "to": "j***@example.com",
        "createdAt": "2030-01-01T00:00:00.000Z", "expiresAt": "2030-01-01T00:10:00.000Z", "attemptsRemaining": 4,
        "verifiedAt": "2030-01-01T00:01:00.000Z", "method": "link", "siblingRequestId": "r2",
        "delivery": { "status": "delivered", "provider": "smtp", "updatedAt": "2030-01-01T00:00:02.000Z" },
        "fallback": { "channel": "SMS", "state": "dropped" } } })
}

#[test]
fn get_verification_reads_every_field_of_the_resource() {
    let s = Scripted::new(200, resource());
    let v = s.client().get_verification(REQUEST_ID).unwrap();
    assert_eq!(
        s.request(0),
        (
            "GET".into(),
            format!("http://cv.test/v1/contact/verifications/{}", REQUEST_ID),
            None
        )
    );
    assert_eq!(
        (v.status, v.method),
        (VerificationStatus::Verified, Some(VerificationMethod::Link))
    );
    assert_eq!(v.verified_at.map(|t| t.unix_timestamp()), Some(1_893_456_060));
    assert_eq!(v.created_at.unix_timestamp(), 1_893_456_000);
    assert_eq!((v.attempts_remaining, v.sibling_request_id.as_deref()), (4, Some("r2")));
    assert_eq!(v.delivery.status, DeliveryState::Delivered);
    assert_eq!(v.delivery.provider.as_deref(), Some("smtp"));
    assert_eq!(v.delivery.updated_at.unix_timestamp(), 1_893_456_002);
    let fallback = v.fallback.unwrap();
    assert_eq!(
        (fallback.channel, fallback.state),
        (Channel::Sms, FallbackState::Dropped)
    );
    assert_eq!((fallback.reason, fallback.request_id), (None, None));
}

#[test]
fn cancel_posts_an_empty_object_and_unknown_values_still_parse() {
    let s = Scripted::new(
        200,
        json!({ "data": {
            "requestId": "r/1", "channel": "EMAIL", "status": "canceled", "to": "j***@example.com",
            "createdAt": "2030-01-01T00:00:00Z", "expiresAt": "2030-01-01T00:10:00Z", "attemptsRemaining": 5,
            "method": "passkey", "delivery": { "status": "read_aloud", "updatedAt": "2030-01-01T00:00:00Z" } } }),
    );
    let v = s.client().cancel_verification("r/1").unwrap();
    // The id is one path segment, whatever it holds.
    assert_eq!(
        s.request(0),
        (
            "POST".into(),
            "http://cv.test/v1/contact/verifications/r%2F1/cancel".into(),
            Some(json!({}))
        )
    );
    assert_eq!(v.status, VerificationStatus::Canceled);
    assert_eq!(v.verified_at, None);
    assert_eq!(v.method, Some(VerificationMethod::Unknown));
    assert_eq!(v.delivery.status, DeliveryState::Unknown);
    assert_eq!(v.delivery.provider, None);
    // FromStr stays strict: only deserializing answers is lenient.
    assert!("read_aloud".parse::<DeliveryState>().is_err());
}

#[test]
fn an_unknown_id_is_not_found_and_not_retried() {
    let s = Scripted::new(
        404,
        json!({ "error": { "code": "NOT_FOUND", "message": "no such request" } }),
    );
    let err = s.client().get_verification(REQUEST_ID).unwrap_err();
    assert_eq!((err.status, err.code), (404, ErrorCode::NotFound));
    assert_eq!(s.requests.lock().unwrap().len(), 1);
}

#[test]
fn link_and_fallback_reach_the_body_and_a_silent_entry_parses() {
    let s = Scripted::new(
        200,
        json!({ "data": { "requestId": REQUEST_ID, "channel": "EMAIL", "status": "pending",
                          "expiresAt": "2030-01-01T00:10:00.000Z", "to": "j***@example.com" } }),
    );
    let cv = s.client();
    cv.send_code(SendCode::email("j@example.com").link(Link::default()))
        .unwrap();
    cv.send_code(SendCode::email("j@example.com").link(Link::redirect_to("https://app.example.com/in")))
        .unwrap();
    s.answer(
        json!({ "data": { "requestId": REQUEST_ID, "channel": "SILENT", "status": "pending",
                               "expiresAt": "2030-01-01T00:10:00.000Z", "to": "+44*******457",
                               "silent": { "url": "https://silent.test.invalid/check/abc" } } }),
    );
    let entry = cv
        .send_code(SendCode::silent("+447911123457").fallback(Channel::Sms))
        .unwrap();
    assert_eq!(
        s.request(0).2,
        Some(json!({ "channel": "EMAIL", "email": "j@example.com", "link": {} }))
    );
    assert_eq!(
        s.request(1).2.unwrap()["link"],
        json!({ "redirectUrl": "https://app.example.com/in" })
    );
    assert_eq!(
        s.request(2).2,
        Some(json!({ "channel": "SILENT", "phone": "+447911123457", "fallback": "SMS" }))
    );
    assert_eq!(entry.channel, Channel::Silent);
    assert_eq!(
        entry.silent.map(|c| c.url),
        Some("https://silent.test.invalid/check/abc".to_string())
    );
    assert_eq!(entry.fallback, None);
}

#[test]
fn a_silent_request_verifies_without_a_code_and_says_what_the_provider_concluded() {
    let s = Scripted::new(
        200,
        json!({ "data": { "verified": false, "channel": "SILENT", "requestId": REQUEST_ID, "status": "pending",
            "attemptsRemaining": 4, "silent": { "outcome": "rejected", "reason": "another SIM" },
            "fallback": { "requestId": "r2", "channel": "SMS", "status": "pending", "reason": "rejected",
                          "expiresAt": "2030-01-01T00:10:00.000Z" } } }),
    );
    let result = s.client().verify_silent(REQUEST_ID).unwrap();
    assert_eq!(s.request(0).2, Some(json!({ "requestId": REQUEST_ID })));
    assert!(!result.verified);
    let silent = result.silent.unwrap();
    assert_eq!(silent.outcome, SilentOutcome::Rejected);
    assert_eq!(silent.reason.as_deref(), Some("another SIM"));
    let fallback = result.fallback.unwrap();
    assert_eq!(
        (fallback.channel, fallback.reason, fallback.request_id.as_str()),
        (Channel::Sms, FallbackReason::Rejected, "r2")
    );
    assert_eq!(fallback.expires_at.unix_timestamp(), 1_893_456_600);
}
