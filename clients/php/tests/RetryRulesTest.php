<?php

declare(strict_types=1);

namespace ContactVerify\Tests;

use ContactVerify\Channel;
use ContactVerify\Client;
use ContactVerify\ErrorCode;
use ContactVerify\ErrorDetail;
use ContactVerify\Exception\ApiException;
use ContactVerify\Exception\AuthenticationException;
use ContactVerify\Exception\ClientException;
use ContactVerify\Exception\NotFoundException;
use ContactVerify\Exception\RateLimitedException;
use ContactVerify\Exception\ServerException;
use ContactVerify\Exception\TooManyAttemptsException;
use PHPUnit\Framework\TestCase;

/** The retry rules of clients/README.md and the typed exceptions. */
final class RetryRulesTest extends TestCase
{
    private const SENT = ['data' => [
        'requestId' => '0190a7c2-0000-7000-8000-000000000001', 'channel' => 'EMAIL', 'status' => 'pending',
        'expiresAt' => '2030-01-01T00:00:00Z', 'to' => 'j***@example.com',
    ]];
    private const HEALTHY = ['status' => 'ok', 'version' => '1', 'uptimeSeconds' => 1, 'services' => [], 'channels' => []];

    public function testA503IsRetriedAtMostMaxRetriesTimes(): void
    {
        $http = new ScriptedTransport(ScriptedTransport::answer(503, ScriptedTransport::error('UNAVAILABLE'), '0'));
        $e = $this->failure(static fn () => (new Client('http://x', 'k', $http))->health());
        self::assertInstanceOf(ServerException::class, $e);
        self::assertSame([503, ErrorCode::Unavailable, 0], [$e->getStatus(), $e->getErrorCode(), $e->getRetryAfter()]);
        self::assertCount(3, $http->requests);
        $http = new ScriptedTransport(ScriptedTransport::answer(503, ScriptedTransport::error('UNAVAILABLE'), '0'));
        $this->failure(static fn () => (new Client('http://x', 'k', $http))->health(maxRetries: 0));
        self::assertCount(1, $http->requests);
    }

    public function testA503WithoutRetryAfterBacksOff(): void
    {
        $http = new ScriptedTransport(ScriptedTransport::answer(503, '<html>proxy</html>'), ScriptedTransport::answer(200, self::HEALTHY));
        $started = hrtime(true);
        self::assertTrue((new Client('http://x', 'k', $http))->health()->isOk());
        self::assertGreaterThanOrEqual(0.2, (hrtime(true) - $started) / 1e9);
        self::assertCount(2, $http->requests);
    }

    public function testRateLimitedIsRetriedOnlyWithAShortRetryAfter(): void
    {
        $http = new ScriptedTransport(
            ScriptedTransport::answer(429, ScriptedTransport::error('RATE_LIMITED'), '0'),
            ScriptedTransport::answer(200, self::SENT),
        );
        $entry = (new Client('http://x', 'k', $http))->sendCode(Channel::Email, email: 'j@x.io');
        self::assertSame('0190a7c2-0000-7000-8000-000000000001', $entry->requestId);
        self::assertCount(2, $http->requests);
        foreach ([null, '11'] as $retryAfter) {
            $http = new ScriptedTransport(ScriptedTransport::answer(429, ScriptedTransport::error('RATE_LIMITED'), $retryAfter));
            $e = $this->failure(static fn () => (new Client('http://x', 'k', $http))->sendCode(Channel::Email, email: 'j@x.io'));
            self::assertInstanceOf(RateLimitedException::class, $e);
            self::assertSame($retryAfter === null ? null : 11, $e->getRetryAfter());
            self::assertCount(1, $http->requests);
        }
    }

    public function testOtherClientErrorsAreNeverRetriedAndThrowTheirClass(): void
    {
        $cases = [
            [429, 'TOO_MANY_ATTEMPTS', TooManyAttemptsException::class],
            [401, 'UNAUTHORIZED', AuthenticationException::class],
            [400, 'VALIDATION_ERROR', ClientException::class],
            [404, 'NOT_FOUND', NotFoundException::class],
            [502, 'DELIVERY_FAILED', ServerException::class],
        ];
        foreach ($cases as [$status, $code, $class]) {
            $http = new ScriptedTransport(ScriptedTransport::answer($status, ScriptedTransport::error($code), '0'));
            $e = $this->failure(static fn () => (new Client('http://x', 'k', $http))->verifyCode('r', '123456'));
            self::assertInstanceOf($class, $e, $code);
            self::assertSame([$status, ErrorCode::from($code)], [$e->getStatus(), $e->getErrorCode()]);
            self::assertEquals([new ErrorDetail('email', 'm')], $e->getDetails());
            self::assertSame("{$status} {$code}: scripted", $e->getMessage());
            self::assertCount(1, $http->requests, $code);
        }
    }

    public function testEverySendHasOneIdempotencyKeyAcrossItsRetries(): void
    {
        $http = new ScriptedTransport(
            ScriptedTransport::answer(503, ScriptedTransport::error('UNAVAILABLE'), '0'),
            ScriptedTransport::answer(503, ScriptedTransport::error('UNAVAILABLE'), '0'),
            ScriptedTransport::answer(200, self::SENT),
        );
        $cv = new Client('http://x', 'k', $http);
        $cv->sendCode(Channel::Email, email: 'j@x.io');
        $cv->sendCode(Channel::Email, email: 'j@x.io');
        $keys = array_map(static fn ($r) => $r->headers['Idempotency-Key'], $http->requests);
        self::assertCount(4, $keys);
        self::assertMatchesRegularExpression('/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/', $keys[0]);
        self::assertSame([$keys[0], $keys[0], $keys[0]], array_slice($keys, 0, 3));
        self::assertNotSame($keys[0], $keys[3]);
    }

    public function testAnUnknownCodeKeepsItsStatusClass(): void
    {
        $http = new ScriptedTransport(ScriptedTransport::answer(409, ScriptedTransport::error('SOMETHING_NEW')));
        $e = $this->failure(static fn () => (new Client('http://x', 'k', $http))->verifyCode('r', '1'));
        self::assertInstanceOf(ClientException::class, $e);
        self::assertNull($e->getErrorCode());
        self::assertStringContainsString('SOMETHING_NEW', $e->getMessage());
    }

    private function failure(callable $call): ApiException
    {
        try {
            $call();
        } catch (ApiException $e) {
            return $e;
        }
        self::fail('no exception');
    }
}
