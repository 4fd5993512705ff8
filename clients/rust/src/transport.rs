//! The HTTP layer under the client, replaceable for tests, proxies or another HTTP library.

use std::io::Read;

/// The error a transport returns when no answer came.
pub type TransportError = Box<dyn std::error::Error + Send + Sync>;

/// One HTTP request the client makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// `GET` or `POST`.
    pub method: &'static str,
    /// The full URL, query included.
    pub url: String,
    pub headers: Vec<(&'static str, String)>,
    /// A JSON body (POST).
    pub body: Option<Vec<u8>>,
}

impl HttpRequest {
    /// The value of a header (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The URL's path, without the query.
    pub fn path(&self) -> &str {
        let after_scheme = self.url.find("://").map(|i| &self.url[i + 3..]).unwrap_or(&self.url);
        let path = after_scheme.find('/').map(|i| &after_scheme[i..]).unwrap_or("/");
        path.split('?').next().unwrap_or(path)
    }
}

/// One HTTP answer, whatever its status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// The value of a header (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What the client sends its requests through: [`ureq::Agent`] by default (set one with
/// [`ClientBuilder::agent`](crate::ClientBuilder::agent) for its proxy, TLS or timeouts), or any
/// implementation of your own ([`ClientBuilder::transport`](crate::ClientBuilder::transport)).
/// Every answer, 4xx and 5xx included, is an `Ok`; an `Err` means no answer came.
pub trait Transport: Send + Sync {
    fn call(&self, request: HttpRequest) -> Result<HttpResponse, TransportError>;
}

impl Transport for ureq::Agent {
    fn call(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        let mut call = self.request(request.method, &request.url);
        for (name, value) in &request.headers {
            call = call.set(name, value);
        }
        let result = match &request.body {
            Some(body) => call.send_bytes(body),
            None => call.call(),
        };
        let response = match result {
            Ok(response) | Err(ureq::Error::Status(_, response)) => response,
            Err(err) => return Err(Box::new(err)),
        };
        let status = response.status();
        let headers = response
            .headers_names()
            .into_iter()
            .filter_map(|name| response.header(&name).map(|v| (name.clone(), v.to_string())))
            .collect();
        let mut body = Vec::new();
        response.into_reader().take(16 * 1024 * 1024).read_to_end(&mut body)?;
        Ok(HttpResponse { status, headers, body })
    }
}

impl<T: Transport + ?Sized> Transport for std::sync::Arc<T> {
    fn call(&self, request: HttpRequest) -> Result<HttpResponse, TransportError> {
        (**self).call(request)
    }
}
