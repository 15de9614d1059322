package io.celer.http.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.celer.http.HttpMethod;
import io.celer.test.Sockets;


/**
 * The client against real servers run as child processes: python3's http.server (HTTP/1.0, a connection per
 * response), a small python3 server that sends chunked bodies with trailers and close-delimited bodies, and nginx
 * serving a static file (Content-Length, pipelined keep-alive) and an SSI page (chunked). Skipped when the
 * program is not installed.
 */
@Tag("peers")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RealPeersTest
{
    private static final String NGINX = "/usr/sbin/nginx";
    private static final String PYTHON_SERVER = String.join("\n",
        "import http.server",
        "class Handler(http.server.BaseHTTPRequestHandler):",
        "    protocol_version = 'HTTP/1.1'",
        "    def log_message(self, *args):",
        "        pass",
        "    def do_GET(self):",
        "        self.send_response(200)",
        "        if self.path == '/chunked':",
        "            self.send_header('Transfer-Encoding', 'chunked')",
        "            self.send_header('Trailer', 'X-Checksum')",
        "            self.end_headers()",
        "            for part in (b'alpha,', b'beta,', b'gamma'):",
        "                self.wfile.write(b'%x;ext=1\\r\\n%s\\r\\n' % (len(part), part))",
        "            self.wfile.write(b'0\\r\\nX-Checksum: 42\\r\\n\\r\\n')",
        "        else:",
        "            self.send_header('Content-Type', 'text/plain')",
        "            self.end_headers()",
        "            self.wfile.write(b'close-delimited body')",
        "            self.close_connection = True",
        "server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)",
        "print('PORT', server.server_address[1], flush=True)",
        "server.serve_forever()",
        "");

    @TempDir
    Path dir;

    @RegisterExtension
    final ClientRig rig = new ClientRig();
    private HttpClient client;
    private ChildProcess peer;

    private void connect(final int port)
    {
        client = rig.client(new HttpClientConfig().connectionsPerHost(1).reconnectDelayMillis(10), "127.0.0.1:" + port);
    }

    private static void assumePython()
    {
        assumeTrue(ChildProcess.installed("python3", "--version"), "python3 is not installed: skipped");
    }

    @Test
    void pythonHttpServerAnswersHttp10AndClosesEachConnection() throws IOException
    {
        assumePython();
        Files.writeString(dir.resolve("hello.txt"), "hello from python");
        peer = rig.add(
            new ChildProcess(dir, List.of("python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1")));
        final String line = peer.awaitLine(l -> l.startsWith("Serving HTTP on"));
        final int port = Integer.parseInt(line.replaceAll(".* port (\\d+) .*", "$1"));
        connect(port);
        final Outcomes outcomes = new Outcomes();
        rig.sendAll(3, "/hello.txt", outcomes);
        rig.send(HttpMethod.GET, "/missing", 3, outcomes);
        rig.send(HttpMethod.HEAD, "/hello.txt", 4, outcomes);
        final List<String> lines = outcomes.await(5);
        assertThat(lines.subList(0, 3)).containsExactly("0 200 hello from python", "1 200 hello from python",
            "2 200 hello from python");
        assertThat(lines.get(3)).startsWith("3 404 ");
        assertThat(lines.get(4)).isEqualTo("4 200 ");
        assertThat(outcomes.heads().get(0)).startsWith("HTTP/1.0 200").contains("Content-Length: 17");
    }

    @Test
    void pythonChunkedWithTrailersAndCloseDelimitedBodies() throws IOException
    {
        assumePython();
        Files.writeString(dir.resolve("server.py"), PYTHON_SERVER);
        peer = rig.add(new ChildProcess(dir, List.of("python3", "-u", "server.py")));
        final int port = Integer.parseInt(peer.awaitLine(l -> l.startsWith("PORT ")).substring(5).trim());
        connect(port);
        final Outcomes outcomes = new Outcomes();
        rig.sendAll(4, "/chunked", outcomes);
        rig.send(HttpMethod.GET, "/close", 4, outcomes);
        rig.send(HttpMethod.GET, "/chunked", 5, outcomes);
        assertThat(outcomes.await(6)).containsExactly("0 200 alpha,beta,gamma", "1 200 alpha,beta,gamma",
            "2 200 alpha,beta,gamma", "3 200 alpha,beta,gamma", "4 200 close-delimited body", "5 200 alpha,beta,gamma");
        assertThat(outcomes.heads().get(4)).doesNotContain("Content-Length", "Transfer-Encoding");
    }

    @Test
    void nginxServesStaticFilesPipelinedAndChunkedPages() throws IOException
    {
        assumeTrue(ChildProcess.installed(NGINX, "-v"), "nginx is not installed at " + NGINX + ": skipped");
        final Path www = Files.createDirectories(dir.resolve("www/ssi"));
        Files.createDirectories(dir.resolve("tmp"));
        final String file = "static ".repeat(500);
        Files.writeString(dir.resolve("www/static.txt"), file);
        Files.writeString(www.resolve("page.txt"), "begin <!--# set var=\"x\" value=\"middle\" --><!--# echo var=\"x\" --> end");
        final int port = Sockets.freePort();
        final String t = dir.resolve("tmp").toString();
        Files.writeString(dir.resolve("nginx.conf"), String.join("\n",
            "daemon off;", "master_process off;", "worker_processes 1;",
            "error_log " + dir.resolve("error.log") + ";", "pid " + dir.resolve("nginx.pid") + ";",
            "events { worker_connections 64; }",
            "http {",
            "  access_log off; gzip off; default_type text/plain; keepalive_requests 10000;",
            "  client_body_temp_path " + t + "; proxy_temp_path " + t + "; fastcgi_temp_path " + t + ";",
            "  uwsgi_temp_path " + t + "; scgi_temp_path " + t + ";",
            "  server {",
            "    listen 127.0.0.1:" + port + ";",
            "    root " + dir.resolve("www") + ";",
            "    location /ssi/ { ssi on; ssi_types text/plain; chunked_transfer_encoding on; }",
            "  }",
            "}", ""));
        peer = rig.add(new ChildProcess(dir, List.of(NGINX, "-p", dir.toString(),
            "-c", dir.resolve("nginx.conf").toString(), "-e", dir.resolve("startup.log").toString())));
        peer.awaitPort(port);
        connect(port);
        final Outcomes outcomes = new Outcomes();
        client.reactor().execute(() ->
        {
            for (int i = 0; i < 40; i++)
            {
                client.request(HttpMethod.GET, i % 4 == 3 ? "/ssi/page.txt" : "/static.txt").tag(i).send(outcomes);
            }
            client.request(HttpMethod.HEAD, "/static.txt").tag(40).send(outcomes);
            client.request(HttpMethod.GET, "/absent").tag(41).send(outcomes);
        });
        final List<String> lines = outcomes.await(42);
        for (int i = 0; i < 40; i++)
        {
            assertThat(lines.get(i)).isEqualTo(i + " 200 " + (i % 4 == 3 ? "begin middle end" : file));
        }
        assertThat(lines.get(40)).isEqualTo("40 200 ");
        assertThat(lines.get(41)).startsWith("41 404 ");
        assertThat(outcomes.heads().get(0)).contains("Content-Length: " + file.getBytes(StandardCharsets.US_ASCII).length);
        assertThat(outcomes.heads().get(3)).contains("Transfer-Encoding: chunked");
    }
}
