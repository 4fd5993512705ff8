<?php

declare(strict_types=1);

namespace ContactVerify\Tests;

use ContactVerify\Channel;
use ContactVerify\Client;
use ContactVerify\Exception\ConnectionException;
use ContactVerify\Exception\RateLimitedException;
use ContactVerify\Http\CurlTransport;
use ContactVerify\Http\Request;
use PHPUnit\Framework\TestCase;

/** The default transport against a real HTTP server: PHP's own, on loopback. */
final class CurlTransportTest extends TestCase
{
    /** @var resource|null */
    private static $server = null;
    private static string $url;

    public static function setUpBeforeClass(): void
    {
        $port = self::freePort();
        self::$url = "http://127.0.0.1:{$port}";
        $command = [PHP_BINARY, '-S', "127.0.0.1:{$port}", __DIR__ . '/fixtures/router.php'];
        self::$server = proc_open($command, [['pipe', 'r'], ['file', '/dev/null', 'w'], ['file', '/dev/null', 'w']], $pipes);
        $deadline = microtime(true) + 20;
        while (@fsockopen('127.0.0.1', $port) === false) {
            if (microtime(true) > $deadline) {
                self::fail('php -S did not start');
            }
            usleep(20_000);
        }
    }

    public static function tearDownAfterClass(): void
    {
        if (self::$server !== null) {
            proc_terminate(self::$server);
            proc_close(self::$server);
        }
    }

    public function testSendsMethodHeadersAndBodyAndReadsTheAnswer(): void
    {
        $response = (new CurlTransport())->send(new Request(
            'POST',
            self::$url . '/201/-/7/echo',
            ['Content-Type' => 'application/json', 'Idempotency-Key' => 'k-1'],
            '{"a":"é"}',
            5.0,
        ));
        self::assertSame(201, $response->status);
        self::assertSame('7', $response->header('Retry-After'));
        $received = json_decode($response->body, true, 512, JSON_THROW_ON_ERROR);
        self::assertSame(['POST', '/201/-/7/echo', 'k-1', '{"a":"é"}'], [$received['method'], $received['path'], $received['headers']['idempotency-key'], $received['body']]);
    }

    public function testTheClientOverCurlReadsTheErrorAndItsRetryAfter(): void
    {
        $cv = new Client(self::$url . '/429/RATE_LIMITED/30', 'cvk_test_k');
        try {
            $cv->sendCode(Channel::Email, email: 'j@x.io');
            self::fail('no exception');
        } catch (RateLimitedException $e) {
            self::assertSame([429, 30], [$e->getStatus(), $e->getRetryAfter()]);
        }
    }

    public function testNoAnswerIsAConnectionException(): void
    {
        $this->expectException(ConnectionException::class);
        $this->expectExceptionMessageMatches('/^0 NETWORK_ERROR: No answer from http:\/\/127\.0\.0\.1:\d+/');
        (new Client('http://127.0.0.1:' . self::freePort(), 'k', timeout: 2.0))->health();
    }

    private static function freePort(): int
    {
        $socket = stream_socket_server('tcp://127.0.0.1:0');
        $name = stream_socket_get_name($socket, false);
        fclose($socket);
        return (int) substr((string) $name, strrpos((string) $name, ':') + 1);
    }
}
