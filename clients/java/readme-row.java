// The program around the Java row of the main README's client table (test/clients.readme-snippets):
// the row replaces the marked line below and must print "verified". The row sends and verifies in
// one line, so the code has to be known between its two calls: the client's injected HttpClient
// reads it from the outbox (test-mode key) as soon as the send is answered.
import com.contactverify.*;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

public class Main {
  static String otpCode;

  /** Reads the code from the outbox once the send is answered. */
  static final class CodeReader extends HttpClient {
    private final HttpClient http = HttpClient.newHttpClient();
    private final String email;

    CodeReader(String email) { this.email = email; }

    @Override public Optional<CookieHandler> cookieHandler() { return http.cookieHandler(); }
    @Override public Optional<Duration> connectTimeout() { return http.connectTimeout(); }
    @Override public Redirect followRedirects() { return http.followRedirects(); }
    @Override public Optional<ProxySelector> proxy() { return http.proxy(); }
    @Override public SSLContext sslContext() { return http.sslContext(); }
    @Override public SSLParameters sslParameters() { return http.sslParameters(); }
    @Override public Optional<Authenticator> authenticator() { return http.authenticator(); }
    @Override public Version version() { return http.version(); }
    @Override public Optional<Executor> executor() { return http.executor(); }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException, InterruptedException {
      return sendAsync(request, handler).join();
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
      return http.sendAsync(request, handler).thenApply(response -> {
        if (request.uri().getPath().equals("/v1/contact/send-code") && response.statusCode() == 200) {
          otpCode = new TestOutbox(System.getenv("CV_BASE_URL"), System.getenv("CV_ADMIN_TOKEN")).latestOutboxCode(email);
        }
        return response;
      });
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(
        HttpRequest request, HttpResponse.BodyHandler<T> handler, HttpResponse.PushPromiseHandler<T> push) {
      return sendAsync(request, handler);
    }
  }

  public static void main(String[] args) {
    String email = "readme-row-java-" + System.nanoTime() + "@example.com";
    var cv = ContactVerifyClient.builder(System.getenv("CV_BASE_URL"), System.getenv("CV_API_KEY"))
        .httpClient(new CodeReader(email)).build();

    // README_ROW
    System.out.println(r.status());
  }
}
