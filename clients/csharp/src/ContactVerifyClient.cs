using System;
using System.Collections.Generic;
using System.Linq;
using System.Net.Http;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace ContactVerify
{
    /// <summary>The client's settings.</summary>
    public sealed class ContactVerifyClientOptions
    {
        /// <summary>Your own HttpClient (handlers, proxy, IHttpClientFactory's); not disposed by the client.</summary>
        public HttpClient HttpClient { get; set; }
        /// <summary>The timeout of each request (10 s).</summary>
        public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(10);
        /// <summary>Retries of a 503 or of a short RATE_LIMITED per call (2).</summary>
        public int MaxRetries { get; set; } = 2;
        /// <summary>The longest Retry-After waited for (10 s); a longer one is raised at once.</summary>
        public TimeSpan MaxRetryAfter { get; set; } = TimeSpan.FromSeconds(10);
    }

    /// <summary>
    /// A client of the contact verification API. Retries 503 and 429 RATE_LIMITED answers that carry a
    /// Retry-After of at most 10 s, at most MaxRetries times; never TOO_MANY_ATTEMPTS or another 4xx.
    /// Every send carries an Idempotency-Key kept across its retries, so a retry never sends a second
    /// code. Thread-safe.
    /// </summary>
    public sealed class ContactVerifyClient : IDisposable
    {
        public const string Version = "0.2.0";
        private readonly Transport _transport;
        private readonly string _baseUrl;
        private readonly string _apiKey;
        private readonly ContactVerifyClientOptions _options;
        private readonly bool _ownsHttp;

        public ContactVerifyClient(string baseUrl, string apiKey, ContactVerifyClientOptions options = null)
        {
            _baseUrl = baseUrl ?? throw new ArgumentNullException(nameof(baseUrl));
            _apiKey = apiKey ?? throw new ArgumentNullException(nameof(apiKey));
            _options = options ?? new ContactVerifyClientOptions();
            _ownsHttp = _options.HttpClient == null;
            var http = _options.HttpClient ?? new HttpClient { Timeout = System.Threading.Timeout.InfiniteTimeSpan };
            _transport = new Transport(baseUrl, apiKey, http, _options.Timeout, _options.MaxRetries, _options.MaxRetryAfter);
        }

        /// <summary>The same client (and HttpClient) with another retry limit.</summary>
        public ContactVerifyClient WithMaxRetries(int maxRetries) => new ContactVerifyClient(_baseUrl, _apiKey, new ContactVerifyClientOptions
        {
            HttpClient = _transport.Http, Timeout = _options.Timeout, MaxRetries = maxRetries, MaxRetryAfter = _options.MaxRetryAfter,
        });

        /// <summary>Sends a code on one channel (request.Channel).</summary>
        public async Task<SendEntry> SendCodeAsync(SendCodeRequest request, CancellationToken cancel = default(CancellationToken))
        {
            if (request == null) throw new ArgumentNullException(nameof(request));
            if (!request.Channel.HasValue) throw new ArgumentException("request.Channel is not set (two channels are sent with SendCodeDualAsync)");
            return SendEntry.From(await SendAsync(request, cancel).ConfigureAwait(false) as IDictionary<string, object>);
        }

        /// <summary>Sends codes on two channels at once (request.Channels): one entry per channel, in order.</summary>
        public async Task<IReadOnlyList<SendEntry>> SendCodeDualAsync(SendCodeRequest request, CancellationToken cancel = default(CancellationToken))
        {
            if (request == null) throw new ArgumentNullException(nameof(request));
            if (request.Channels == null || request.Channels.Count != 2) throw new ArgumentException("request.Channels needs two channels (one is sent with SendCodeAsync)");
            var data = await SendAsync(request, cancel).ConfigureAwait(false) as List<object>;
            return data?.Select(e => SendEntry.From(e as IDictionary<string, object>)).ToList();
        }

        private async Task<object> SendAsync(SendCodeRequest request, CancellationToken cancel)
        {
            var headers = new Dictionary<string, string> { { "Idempotency-Key", request.IdempotencyKey ?? Guid.NewGuid().ToString() } };
            var answer = await _transport.CallAsync(HttpMethod.Post, "/v1/contact/send-code", request.Body(), headers, cancel).ConfigureAwait(false);
            return (answer as IDictionary<string, object>).Get("data");
        }

        /// <summary>
        /// Checks a code; a wrong code is Verified false, not an exception. A code of digits goes as otpCode; any other
        /// (the code a SILENT provider's URL handed the device) as code.
        /// </summary>
        public Task<VerifyResult> VerifyCodeAsync(string requestId, string otpCode, CancellationToken cancel = default(CancellationToken))
        {
            if (otpCode == null) throw new ArgumentNullException(nameof(otpCode), "VerifyCodeAsync(requestId) checks a SILENT request without one");
            return VerifyAsync(requestId, otpCode, cancel);
        }

        /// <summary>
        /// Checks a SILENT request without a code: the service asks the provider whether the device completed
        /// Silent.Url; the result's Silent.Outcome says what it concluded (Pending: ask again).
        /// </summary>
        public Task<VerifyResult> VerifyCodeAsync(string requestId, CancellationToken cancel = default(CancellationToken)) =>
            VerifyAsync(requestId, null, cancel);

        private async Task<VerifyResult> VerifyAsync(string requestId, string code, CancellationToken cancel)
        {
            var body = new Dictionary<string, object> { { "requestId", requestId ?? throw new ArgumentNullException(nameof(requestId)) } };
            if (code != null) body[code.Length > 0 && code.All(c => c >= '0' && c <= '9') ? "otpCode" : "code"] = code;
            var answer = await _transport.CallAsync(HttpMethod.Post, "/v1/contact/verify-code", body, null, cancel).ConfigureAwait(false);
            return VerifyResult.From((answer as IDictionary<string, object>).Obj("data"));
        }

        /// <summary>
        /// The request as it is now: its status, how it was verified, what became of its message. An unknown id, or
        /// another account's, is a NOT_FOUND ContactVerifyException.
        /// </summary>
        public async Task<Verification> GetVerificationAsync(string requestId, CancellationToken cancel = default(CancellationToken))
        {
            var answer = await _transport.CallAsync(HttpMethod.Get, VerificationPath(requestId), null, null, cancel).ConfigureAwait(false);
            return Verification.From((answer as IDictionary<string, object>).Obj("data"));
        }

        /// <summary>
        /// Cancels a pending request and its dual sibling, and answers it. A settled request is answered as it is,
        /// unchanged, so a repeated cancel is harmless.
        /// </summary>
        public async Task<Verification> CancelVerificationAsync(string requestId, CancellationToken cancel = default(CancellationToken))
        {
            var answer = await _transport.CallAsync(HttpMethod.Post, VerificationPath(requestId) + "/cancel", null, null, cancel).ConfigureAwait(false);
            return Verification.From((answer as IDictionary<string, object>).Obj("data"));
        }

        private static string VerificationPath(string requestId)
        {
            if (string.IsNullOrEmpty(requestId)) throw new ArgumentException("requestId is empty", nameof(requestId));
            return "/v1/contact/verifications/" + Uri.EscapeDataString(requestId);
        }

        /// <summary>The service's health (no key needed).</summary>
        public async Task<Health> HealthAsync(CancellationToken cancel = default(CancellationToken))
        {
            return Health.From(await _transport.CallAsync(HttpMethod.Get, "/health", null, null, cancel).ConfigureAwait(false) as IDictionary<string, object>);
        }

        /// <summary>Disposes the HttpClient the client made (never one you gave it).</summary>
        public void Dispose()
        {
            if (_ownsHttp) _transport.Http.Dispose();
        }
    }

    /// <summary>One HTTP exchange with the retry rules; the same request (so the same Idempotency-Key) is sent again.</summary>
    internal sealed class Transport
    {
        private readonly string _baseUrl;
        private readonly string _token;
        private readonly TimeSpan _timeout;
        private readonly int _maxRetries;
        private readonly TimeSpan _maxRetryAfter;
        public readonly HttpClient Http;

        public Transport(string baseUrl, string token, HttpClient http, TimeSpan timeout, int maxRetries, TimeSpan maxRetryAfter)
        {
            _baseUrl = baseUrl.TrimEnd('/');
            _token = token;
            Http = http;
            _timeout = timeout;
            _maxRetries = maxRetries;
            _maxRetryAfter = maxRetryAfter;
        }

        public async Task<object> CallAsync(HttpMethod method, string path, object body, IDictionary<string, string> headers, CancellationToken cancel)
        {
            var json = body == null ? null : Json.Write(body);
            for (var attempt = 0; ; attempt++)
            {
                try
                {
                    return await OnceAsync(method, path, json, headers, cancel).ConfigureAwait(false);
                }
                catch (ContactVerifyException e)
                {
                    var wait = attempt < _maxRetries ? RetryDelay(e, attempt) : null;
                    if (wait == null) throw;
                    await Task.Delay(wait.Value, cancel).ConfigureAwait(false);
                }
            }
        }

        private TimeSpan? RetryDelay(ContactVerifyException e, int attempt)
        {
            if (e.Status == 503)
                return e.RetryAfter.HasValue
                    ? (e.RetryAfter.Value > _maxRetryAfter ? _maxRetryAfter : e.RetryAfter.Value)
                    : TimeSpan.FromMilliseconds(250 << attempt);
            if (e.Status == 429 && e.ErrorCode == ErrorCode.RateLimited && e.RetryAfter.HasValue && e.RetryAfter.Value <= _maxRetryAfter)
                return e.RetryAfter.Value;
            return null;
        }

        private async Task<object> OnceAsync(HttpMethod method, string path, string body, IDictionary<string, string> headers, CancellationToken cancel)
        {
            var request = new HttpRequestMessage(method, _baseUrl + path);
            request.Headers.TryAddWithoutValidation("Accept", "application/json");
            request.Headers.TryAddWithoutValidation("Authorization", "Bearer " + _token);
            request.Headers.TryAddWithoutValidation("User-Agent", "contact-verify-dotnet/" + ContactVerifyClient.Version);
            if (headers != null)
                foreach (var h in headers) request.Headers.TryAddWithoutValidation(h.Key, h.Value);
            if (body != null) request.Content = new StringContent(body, Encoding.UTF8, "application/json");
            HttpResponseMessage response;
            string text;
            using (var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancel))
            {
                timeout.CancelAfter(_timeout);
                try
                {
                    response = await Http.SendAsync(request, timeout.Token).ConfigureAwait(false);
                    text = await response.Content.ReadAsStringAsync().ConfigureAwait(false);
                }
                catch (OperationCanceledException) when (cancel.IsCancellationRequested)
                {
                    throw;
                }
                catch (Exception e) when (e is HttpRequestException || e is OperationCanceledException || e is System.IO.IOException)
                {
                    throw new ContactVerifyException(0, "NETWORK_ERROR", "No answer from " + _baseUrl + ": " + e.Message, null, null, e);
                }
            }
            object parsed = null;
            try { parsed = text.Length == 0 ? null : Json.Parse(text); } catch (FormatException) { /* not JSON: a proxy's page */ }
            var status = (int)response.StatusCode;
            if (status < 300) return parsed;
            var error = (parsed as IDictionary<string, object>).Obj("error");
            throw new ContactVerifyException(
                status,
                error.Str("code") ?? (status == 503 ? "UNAVAILABLE" : "INTERNAL"),
                error.Str("message") ?? "HTTP " + status,
                error.List("details", ErrorDetail.From),
                RetryAfterOf(response));
        }

        private static TimeSpan? RetryAfterOf(HttpResponseMessage response)
        {
            IEnumerable<string> values;
            int seconds;
            if (response.Headers.TryGetValues("Retry-After", out values) && int.TryParse(values.FirstOrDefault(), out seconds))
                return TimeSpan.FromSeconds(seconds);
            return null;
        }
    }
}
