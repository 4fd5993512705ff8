// The program around the C# row of the main README's client table (test/clients.readme-snippets):
// the row replaces the marked line below and must print "verified". The row sends and verifies in
// one line, so the code has to be known between its two calls: the client's injected HttpClient
// reads it from the outbox (test-mode key) as soon as the send is answered.
using System;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
using ContactVerify;

public static class Program
{
    private static string otpCode;

    private sealed class CodeReader : DelegatingHandler
    {
        private readonly string _email;

        public CodeReader(string email) : base(new HttpClientHandler()) { _email = email; }

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancel)
        {
            var response = await base.SendAsync(request, cancel);
            if (request.RequestUri.AbsolutePath == "/v1/contact/send-code" && (int)response.StatusCode == 200)
                otpCode = await new TestOutbox(Environment.GetEnvironmentVariable("CV_BASE_URL"), Environment.GetEnvironmentVariable("CV_ADMIN_TOKEN")).LatestOutboxCodeAsync(_email);
            return response;
        }
    }

    public static void Main() => Run().GetAwaiter().GetResult();

    private static async Task Run()
    {
        var email = "readme-row-csharp-" + DateTime.UtcNow.Ticks + "@example.com";
        var options = new ContactVerifyClientOptions { HttpClient = new HttpClient(new CodeReader(email)) };
        var cv = new ContactVerifyClient(Environment.GetEnvironmentVariable("CV_BASE_URL"), Environment.GetEnvironmentVariable("CV_API_KEY"), options);

        // README_ROW
        Console.WriteLine(r.Verified ? "verified" : "not verified: " + r.Status);
    }
}
