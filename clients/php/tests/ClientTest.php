<?php

declare(strict_types=1);

namespace ContactVerify\Tests;

use ContactVerify\Channel;
use ContactVerify\Client;
use ContactVerify\DeliveryType;
use ContactVerify\ErrorCode;
use ContactVerify\Exception\ConnectionException;
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

    public function testHealthReadsNestedValues(): void
    {
        $http = new ScriptedTransport(ScriptedTransport::answer(200, [
            'status' => 'degraded', 'version' => '1.2.3', 'uptimeSeconds' => 5,
            'services' => ['database' => 'up', 'rateLimitStore' => 'down'],
            'channels' => ['SMS' => ['operational' => false, 'providers' => [['name' => 'twilio', 'state' => 'down']], 'liveCodes' => 'refused']],
            'pumpingBreakers' => [['country' => 'FR', 'count' => 2]],
        ]));
        $health = (new Client('http://x', 'k', $http))->health();
        self::assertFalse($health->isOk());
        self::assertSame('down', $health->services['rateLimitStore']);
        self::assertFalse($health->channels['SMS']->operational);
        self::assertSame('down', $health->channels['SMS']->providers[0]->state);
        self::assertSame(2, $health->pumpingBreakers[0]->count);
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
