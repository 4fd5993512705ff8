// The program around the Rust row of the main README's client table (test/clients.readme-snippets):
// the row replaces the marked line below and must print "verified". The row sends and verifies
// in one line, so the code has to be known between its two calls: the client's injected
// transport reads it from the outbox (test-mode key) as soon as the send is answered, and
// `otp_code` hands it to the row's verify_code.
use contact_verify::{Client, HttpRequest, HttpResponse, SendCode, TestOutbox, Transport, TransportError};
use std::env;
use std::ops::Deref;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

static CODE: Mutex<Option<&'static str>> = Mutex::new(None);

struct CodeReader {
    agent: contact_verify::ureq::Agent,
    email: String,
}

impl Transport for CodeReader {
    fn call(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        let is_send = request.path() == "/v1/contact/send-code";
        let response = self.agent.call(request)?;
        if is_send && response.status == 200 {
            let outbox = TestOutbox::new(env::var("CV_BASE_URL")?, env::var("CV_ADMIN_TOKEN")?);
            let code = outbox.latest_outbox_code(&self.email)?;
            *CODE.lock().unwrap() = Some(Box::leak(code.into_boxed_str()));
        }
        Ok(response)
    }
}

/// The code read after the send, as a `&str`.
struct OtpCode;

impl Deref for OtpCode {
    type Target = str;
    fn deref(&self) -> &str {
        CODE.lock().unwrap().expect("the send was answered")
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let email = format!(
        "readme-row-rust-{}@example.com",
        SystemTime::now().duration_since(UNIX_EPOCH)?.as_nanos()
    );
    let agent = contact_verify::ureq::agent();
    let cv = Client::builder(env::var("CV_BASE_URL")?, env::var("CV_API_KEY")?)
        .transport(CodeReader {
            agent,
            email: email.clone(),
        })
        .build();
    let otp_code = OtpCode;

    // README_ROW
    println!("{}", r.status);
    Ok(())
}
