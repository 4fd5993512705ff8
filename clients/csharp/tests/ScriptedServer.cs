using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;

/// <summary>A real HTTP server on 127.0.0.1 (HttpListener) that answers from a script and records what it was sent.</summary>
public sealed class ScriptedServer : IDisposable
{
    public sealed class Seen
    {
        public string Method;
        public string PathAndQuery;
        public WebHeaderCollectionCopy Headers;
        public string Body;
    }

    public sealed class WebHeaderCollectionCopy
    {
        private readonly Dictionary<string, string> _values = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        public WebHeaderCollectionCopy(System.Collections.Specialized.NameValueCollection h) { foreach (string k in h) _values[k] = h[k]; }
        public string this[string name] { get { string v; return _values.TryGetValue(name, out v) ? v : null; } }
    }

    private readonly HttpListener _listener = new HttpListener();
    private readonly Queue<Tuple<int, Dictionary<string, string>, string>> _script = new Queue<Tuple<int, Dictionary<string, string>, string>>();
    public readonly List<Seen> Requests = new List<Seen>();
    public readonly string Url;

    public ScriptedServer()
    {
        var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        var port = ((IPEndPoint)probe.LocalEndpoint).Port;
        probe.Stop();
        Url = "http://127.0.0.1:" + port;
        _listener.Prefixes.Add(Url + "/");
        _listener.Start();
        new Thread(Serve) { IsBackground = true }.Start();
    }

    public ScriptedServer Answer(int status, string body, Dictionary<string, string> headers = null)
    {
        lock (_script) _script.Enqueue(Tuple.Create(status, headers ?? new Dictionary<string, string>(), body));
        return this;
    }

    private void Serve()
    {
        while (_listener.IsListening)
        {
            HttpListenerContext context;
            try { context = _listener.GetContext(); } catch (Exception) { return; }
            string body;
            using (var reader = new StreamReader(context.Request.InputStream, Encoding.UTF8)) body = reader.ReadToEnd();
            lock (Requests) Requests.Add(new Seen { Method = context.Request.HttpMethod, PathAndQuery = context.Request.RawUrl, Headers = new WebHeaderCollectionCopy(context.Request.Headers), Body = body });
            Tuple<int, Dictionary<string, string>, string> answer;
            lock (_script) answer = _script.Count > 0 ? _script.Dequeue() : Tuple.Create(500, new Dictionary<string, string>(), "{\"error\":{\"code\":\"INTERNAL\",\"message\":\"script is empty\"}}");
            context.Response.StatusCode = answer.Item1;
            foreach (var h in answer.Item2) context.Response.AddHeader(h.Key, h.Value);
            context.Response.ContentType = "application/json";
            var bytes = Encoding.UTF8.GetBytes(answer.Item3);
            context.Response.ContentLength64 = bytes.Length;
            context.Response.OutputStream.Write(bytes, 0, bytes.Length);
            context.Response.Close();
        }
    }

    public int Count { get { lock (Requests) return Requests.Count; } }

    public Seen this[int i] { get { lock (Requests) return Requests[i]; } }

    public void Dispose()
    {
        try { _listener.Stop(); _listener.Close(); } catch (ObjectDisposedException) { }
    }
}
