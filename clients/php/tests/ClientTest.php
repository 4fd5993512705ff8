<?php

declare(strict_types=1);

namespace ContactVerify\Tests;

use ContactVerify\Channel;
use ContactVerify\Client;
use ContactVerify\DeliveryState;
use ContactVerify\DeliveryType;
use ContactVerify\ErrorCode;
use ContactVerify\Exception\ConnectionException;
use ContactVerify\Exception\NotFoundException;
use ContactVerify\FallbackReason;
use ContactVerify\FallbackState;
use ContactVerify\SendLink;
use ContactVerify\SilentOutcome;
use ContactVerify\VerificationMethod;
use ContactVerify\RiskLevel;
use ContactVerify\SendCodeEntryStatus;
use ContactVerify\VerificationStatus;
use PHPUnit\Framework\TestCase;

/** What the client sends and what it hands back, through an injected transport. */
final class ClientTest extends TestCase
{
    private const ENTRY = [
        'requestId' => '0190a7c2-0000-7000-8000-000000000001', 'channel' => 'WHATSAPP', 'status' => 'pending',
        'expiresAt' => '2030-01-02T03:04:05.678Z', 'to' => '+33******78', 'deliveryType' => 'CALL',
        'risk' => ['score' => 20, 'level' => 'low', 'signals' => [['name' => 'number_type', 'weight' => 20, 'detail' => 'a VOIP number']]],
    ];

    public function testEverySendOptionReachesTheWireByItsNameInTheDocument(): void
    {
        $http = new ScriptedTransport(ScriptedTransport::answer(200, ['data' => self::ENTRY]));
        $cv = new Client('https://cv.example/', 'cvk_test_k', transport: $http, timeout: 5.0);
        $entry = $cv->sendCode(
            Channel::WhatsApp,
            phone: '+33612345678',
            country: 'FR',
            deliveryType: DeliveryType::Call,
            purpose: 'checkout',
            customMessage: 'Almost done.',
            locale: 'pt-BR',
            idempotencyKey: 'order-42',
        );
        $request = $http->requests[0];
        self::assertSame(['POST', 'https://cv.example/v1/contact/send-code'], [$request->method, $request->url]);
        self::assertSame([
            'channel' => 'WHATSAPP', 'phone' => '+33612345678', 'country' => 'FR', 'deliveryType' => 'CALL',
            'purpose' => 'checkout', 'customMessage' => 'Almost done.', 'locale' => 'pt-BR',
        ], $http->body(0));
        self::assertSame('order-42', $request->headers['Idempotency-Key']);
        self::assertSame('Bearer cvk_test_k', $request->headers['Authorization']);
        self::assertSame('contact-verify-php/' . Client::VERSION, $request->headers['User-Agent']);
        self::assertSame(5.0, $request->timeout);
        self::assertSame(DeliveryType::Call, $entry->deliveryType);
    }

    public function testASendAnswerReadsAsTypedValues(): void
    {
        $http = new ScriptedTransport(ScriptedTransport::answer(200, ['data' => self::ENTRY]));
        $entry = (new Client('http://x', 'k', $http))->sendCode(Channel::WhatsApp, phone: '+33612345678');
        self::assertEquals(new \DateTimeImmutable('2030-01-02 03:04:05.678 UTC'), $entry->expiresAt);
        self::assertSame(Channel::WhatsApp, $entry->channel);
        self::assertSame(SendCodeEntryStatus::Pending, $entry->status);
        self::assertTrue($entry->isPending());
        self::assertFalse($entry->isUndelivered());
        self::assertSame(RiskLevel::Low, $entry->risk?->level);
        self::assertSame('a VOIP number', $entry->risk?->signals[0]->detail);
        self::assertSame(self::ENTRY, json_decode(json_encode($entry, JSON_THROW_ON_ERROR), true), 'serialized as the service wrote it');
        $this->expectException(\Error::class);
        $entry->to = 'changed'; // @phpstan-ignore-line readonly
    }

    public function testADualSendAnswersAListInTheOrderOfItsChannels(): void
    {
        $undelivered = ['channel' => 'SMS', 'status' => 'undelivered', 'error' => ['code' => 'DELIVERY_FAILED', 'message' => 'down']] + self::ENTRY;
        unset($undelivered['deliveryType']);
        $email = ['channel' => 'EMAIL'] + self::ENTRY;
        unset($email['deliveryType']);
        $http = new ScriptedTransport(ScriptedTransport::answer(200, ['data' => [$email, $undelivered]]));
        $entries = (new Client('http://x', 'k', $http))
            ->sendDualCode([Channel::Email, Channel::Sms], email: 'j@x.io', phone: '+14155552671');
        self::assertSame(['channels' => ['EMAIL', 'SMS'], 'email' => 'j@x.io', 'phone' => '+14155552671'], $http->body(0));
        self::assertSame([Channel::Email, Channel::Sms], array_map(static fn ($e) => $e->channel, $entries));
        self::assertTrue($entries[1]->isUndelivered());
        self::assertSame(ErrorCode::DeliveryFailed, $entries[1]->error?->code);
    }

    public function testAChannelIsAnEnumNotAString(): void
    {
        $http = new ScriptedTransport();
        $this->expectException(\TypeError::class);
        (new Client('http://x', 'k', $http))->sendCode('EMAIL', email: 'j@x.io'); // @phpstan-ignore-line
    }

    public function testAVerifyResultHasItsStatusAsAnEnum(): void
    {
        $answer = ['verified' => false, 'channel' => 'EMAIL', 'requestId' => 'r', 'status' => 'failed', 'attemptsRemaining' => 0];
        $http = new ScriptedTransport(ScriptedTransport::answer(200, ['data' => $answer]));
        $result = (new Client('http://x', 'k', $http))->verifyCode('r', '000000');
        self::assertSame(['requestId' => 'r', 'otpCode' => '000000'], $http->body(0));
        self::assertFalse($result->isVerified());
        self::assertSame(VerificationStatus::Failed, $result->status);
        self::assertSame(0, $result->attemptsRemaining);
        self::assertArrayNotHasKey('Idempotency-Key', $http->requests[0]->headers);
    }

    private const VERIFICATION = [
        'requestId' => '0190a7c2-0000-7000-8000-000000000001', 'channel' => 'EMAIL', 'status' => 'verified',
        'to' => 'j***@example.com', 'createdAt' => '2030-01-01T00:00:00.000Z', 'expiresAt' => '2030-01-01T00:10:00.000Z',
        'attemptsRemaining' => 4, 'verifiedAt' => '2030-01-01T00:01:12.000Z', 'method' => 'link',
        'siblingRequestId' => '0190a7c2-0000-7000-8000-000000000002',
        'delivery' => ['status' => 'delivered', 'provider' => 'smtp', 'updatedAt' => '2030-01-01T00:00:02.000Z'],
    ];

    public function testGetVerificationReadsEveryFieldOfTheResource(): void
    {
        $http = new ScriptedTransport(ScriptedTransport::answer(200, ['data' => self::VERIFICATION]));
        $v = (new Client('https://cv.example/', 'cvk_test_k', $http))->getVerification('0190a7c2-0000-7000-8000-000000000001');
        $request = $http->requests[0];
        self::assertSame(['GET', 'https://cv.example/v1/contact/verifications/0190a7c2-0000-7000-8000-000000000001'], [$request->method, $request->url]);
        self::assertNull($request->body);
        self::assertSame('Bearer cvk_test_k', $request->headers['Authorization']);
        self::assertSame([Channel::Email, VerificationStatus::Verified, 'j***@example.com', 4], [$v->channel, $v->status, $v->to, $v->attemptsRemaining]);
        self::assertTrue($v->isVerified());
        self::assertFalse($v->isPending());
        self::assertEquals(new \DateTimeImmutable('2030-01-01T00:00:00Z'), $v->createdAt);
        self::assertEquals(new \DateTimeImmutable('2030-01-01T00:10:00Z'), $v->expiresAt);
        self::assertEquals(new \DateTimeImmutable('2030-01-01T00:01:12Z'), $v->verifiedAt);
        self::assertSame(VerificationMethod::Link, $v->method);
        self::assertNull($v->deliveryType);
        self::assertSame('0190a7c2-0000-7000-8000-000000000002', $v->siblingRequestId);
        self::assertSame([DeliveryState::Delivered, 'smtp'], [$v->delivery->status, $v->delivery->provider]);
        self::assertEquals(new \DateTimeImmutable('2030-01-01T00:00:02Z'), $v->delivery->updatedAt);
        self::assertSame(self::VERIFICATION, json_decode(json_encode($v, JSON_THROW_ON_ERROR), true), 'serialized as the service wrote it');
        self::assertNull($v->fallback);
    }

    public function testASilentRequestsFallbackOnTheResource(): void
    {
        $answer = ['channel' => 'SILENT', 'fallback' => ['channel' => 'SMS', 'state' => 'fired', 'reason' => 'timeout', 'requestId' => 'f']] + self::VERIFICATION;
        $http = new ScriptedTransport(ScriptedTransport::answer(200, ['data' => $answer]));
        $fallback = (new Client('http://x', 'k', $http))->getVerification('s')->fallback;
        self::assertNotNull($fallback);
        self::assertSame([Channel::Sms, FallbackState::Fired, FallbackReason::Timeout, 'f'], [$fallback->channel, $fallback->state, $fallback->reason, $fallback->requestId]);
    }

    public function testAMethodOrDeliveryStateNewerThanTheLibraryReadsAsNull(): void
    {
        $answer = ['method' => 'passkey', 'delivery' => ['status' => 'read', 'updatedAt' => '2030-01-01T00:00:02Z']] + self::VERIFICATION;
        $http = new ScriptedTransport(ScriptedTransport::answer(200, ['data' => $answer]));
        $v = (new Client('http://x', 'k', $http))->getVerification('r');
        self::assertNull($v->method);
        self::assertNull($v->delivery->status);
        self::assertNull($v->delivery->provider);
        self::assertSame(VerificationStatus::Verified, $v->status);
    }

    public function testCancelVerificationPostsToItsCancelPath(): void
    {
        $canceled = ['status' => 'canceled', 'delivery' => ['status' => 'queued', 'updatedAt' => '2030-01-01T00:00:00Z']] + self::VERIFICATION;
        unset($canceled['verifiedAt'], $canceled['method']);
        $http = new ScriptedTransport(ScriptedTransport::answer(200, ['data' => $canceled]));
        $v = (new Client('http://x', 'k', $http))->cancelVerification('0190a7c2-0000-7000-8000-000000000001');
        self::assertSame(['POST', 'http://x/v1/contact/verifications/0190a7c2-0000-7000-8000-000000000001/cancel'], [$http->requests[0]->method, $http->requests[0]->url]);
        self::assertSame(VerificationStatus::Canceled, $v->status);
        self::assertNull($v->method);
        self::assertNull($v->verifiedAt);
        self::assertSame(DeliveryState::Queued, $v->delivery->status);
    }

    public function testAnIdIsOnePathSegmentAndAnUnknownOneIsATypedNotFound(): void
    {
        $http = new ScriptedTransport(ScriptedTransport::answer(404, ScriptedTransport::error('NOT_FOUND')));
        $cv = new Client('http://x', 'k', $http);
        try {
            $cv->getVerification('../admin/outbox?x=1 2');
            self::fail('no exception');
        } catch (NotFoundException $e) {
            self::assertSame([404, ErrorCode::NotFound], [$e->getStatus(), $e->getErrorCode()]);
        }
        self::assertSame('http://x/v1/contact/verifications/..%2Fadmin%2Foutbox%3Fx%3D1%202', $http->requests[0]->url);
        self::assertCount(1, $http->requests, 'a 404 is not retried');
        $this->expectException(\InvalidArgumentException::class);
        $cv->cancelVerification('');
    }

    public function testTheLinkOptionWithAndWithoutARedirect(): void
    {
        $http = new ScriptedTransport(ScriptedTransport::answer(200, ['data' => ['channel' => 'EMAIL'] + self::ENTRY]));
        $cv = new Client('http://x', 'k', $http);
        $cv->sendCode(Channel::Email, email: 'j@x.io', link: new SendLink());
        $cv->sendCode(Channel::Email, email: 'j@x.io', link: new SendLink(redirectUrl: 'https://app.example.com/welcome'));
        self::assertSame('{"channel":"EMAIL","email":"j@x.io","link":{}}', $http->requests[0]->body);
        self::assertSame(['redirectUrl' => 'https://app.example.com/welcome'], $http->body(1)['link']);
        $dual = new ScriptedTransport(ScriptedTransport::answer(200, ['data' => [self::ENTRY, self::ENTRY]]));
        (new Client('http://x', 'k', $dual))->sendDualCode([Channel::Email, Channel::Sms], email: 'j@x.io', phone: '+14155552671', link: new SendLink());
        self::assertSame('{"channels":["EMAIL","SMS"],"email":"j@x.io","phone":"+14155552671","link":{}}', $dual->requests[0]->body);
    }

    public function testASilentSendWithAFallbackAndItsChecks(): void
    {
        $silent = ['requestId' => 's', 'channel' => 'SILENT', 'status' => 'pending', 'expiresAt' => '2030-01-01T00:10:00.000Z',
            'to' => '+1******2671', 'silent' => ['url' => 'https://silent.test.invalid/check/s']];
        $rejected = ['verified' => false, 'channel' => 'SILENT', 'requestId' => 's', 'status' => 'pending', 'attemptsRemaining' => 4,
            'silent' => ['outcome' => 'rejected', 'reason' => 'another SIM'],
            'fallback' => ['requestId' => 'f', 'channel' => 'SMS', 'status' => 'pending', 'reason' => 'rejected', 'expiresAt' => '2030-01-01T00:10:00.000Z']];
        $verified = ['verified' => true, 'channel' => 'SILENT', 'requestId' => 's', 'status' => 'verified', 'attemptsRemaining' => 4,
            'silent' => ['outcome' => 'verified']];
        $http = new ScriptedTransport(
            ScriptedTransport::answer(200, ['data' => $silent]),
            ScriptedTransport::answer(200, ['data' => $rejected]),
            ScriptedTransport::answer(200, ['data' => $verified]),
        );
        $cv = new Client('http://x', 'k', $http);
        $entry = $cv->sendCode(Channel::Silent, phone: '+14155552671', fallback: Channel::Sms);
        self::assertSame(['channel' => 'SILENT', 'phone' => '+14155552671', 'fallback' => 'SMS'], $http->body(0));
        self::assertSame([Channel::Silent, 'https://silent.test.invalid/check/s'], [$entry->channel, $entry->silent?->url]);
        self::assertNull($entry->fallback);
        self::assertSame($silent, json_decode(json_encode($entry, JSON_THROW_ON_ERROR), true));
        $check = $cv->verifyCode('s');
        self::assertSame(['requestId' => 's'], $http->body(1), 'no code at all');
        self::assertSame([SilentOutcome::Rejected, 'another SIM'], [$check->silent?->outcome, $check->silent?->reason]);
        self::assertSame(['f', Channel::Sms, FallbackReason::Rejected], [$check->fallback?->requestId, $check->fallback?->channel, $check->fallback?->reason]);
        self::assertSame($rejected, json_decode(json_encode($check, JSON_THROW_ON_ERROR), true));
        self::assertTrue($cv->verifyCode('s', 'Ab3_x-9Z')->isVerified());
        self::assertSame(['requestId' => 's', 'code' => 'Ab3_x-9Z'], $http->body(2), "a device code of letters goes as code, the document's name for it");
    }

    public function testHealthReadsNestedValues(): void
    {
        $http = new ScriptedTransport(ScriptedTransport::answer(200, [
            'status' => 'degraded', 'version' => '1.2.3', 'uptimeSeconds' => 5,
            'services' => ['database' => 'up', 'rateLimitStore' => 'down'],
            'channels' => ['SMS' => ['operational' => false, 'providers' => [['name' => 'twilio', 'state' => 'down', 'detail' => 'HTTP 401']], 'liveCodes' => 'refused']],
            'lookups' => ['name' => 'twilio', 'state' => 'down'],
            'pumpingBreakers' => [['country' => 'FR', 'count' => 2]],
        ]));
        $health = (new Client('http://x', 'k', $http))->health();
        self::assertFalse($health->isOk());
        self::assertSame('down', $health->services['rateLimitStore']);
        self::assertFalse($health->channels['SMS']->operational);
        self::assertSame('down', $health->channels['SMS']->providers[0]->state);
        self::assertSame('HTTP 401', $health->channels['SMS']->providers[0]->detail);
        self::assertSame(2, $health->pumpingBreakers[0]->count);
        self::assertSame('twilio', $health->lookups?->name);
        self::assertSame('down', $health->lookups?->state);
        self::assertNull($health->codeSecretRotation);
    }

    public function testHealthReadsARotationOfTheCodeSecret(): void
    {
        $http = new ScriptedTransport(ScriptedTransport::answer(200, [
            'status' => 'ok', 'version' => '1.2.3', 'uptimeSeconds' => 5,
            'services' => ['database' => 'up', 'rateLimitStore' => 'up'], 'channels' => [],
            'codeSecretRotation' => ['previousSecrets' => 1, 'since' => '2030-01-01T00:00:00.000Z', 'removableAfter' => '2030-01-02T00:00:00.000Z'],
        ]));
        $rotation = (new Client('http://x', 'k', $http))->health()->codeSecretRotation;
        self::assertNotNull($rotation);
        self::assertSame(1, $rotation->previousSecrets);
        self::assertEquals(new \DateTimeImmutable('2030-01-01T00:00:00Z'), $rotation->since);
        self::assertSame('2030-01-02T00:00:00.000Z', $rotation->jsonSerialize()['removableAfter']);
    }

    public function testATransportThrowingConnectionExceptionIsNotRetried(): void
    {
        $http = new ScriptedTransport(new ConnectionException('down'));
        try {
            (new Client('http://x', 'k', $http))->health();
            self::fail('no exception');
        } catch (ConnectionException $e) {
            self::assertSame([0, ErrorCode::NetworkError], [$e->getStatus(), $e->getErrorCode()]);
        }
        self::assertCount(1, $http->requests);
    }

    public function testTheVersionIsComposerJsonsVersion(): void
    {
        $composer = json_decode((string) file_get_contents(__DIR__ . '/../composer.json'), true, 512, JSON_THROW_ON_ERROR);
        self::assertSame($composer['version'], Client::VERSION);
    }
}
