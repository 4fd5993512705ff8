<?php

declare(strict_types=1);

namespace ContactVerify\Tests;

use PHPUnit\Framework\TestCase;

/**
 * The library held to the service's OpenAPI document ($CV_OPENAPI, else clients/openapi.json), so a
 * field, status or error code added to the service fails here until the library has it.
 */
final class DriftTest extends TestCase
{
    private static function path(): string
    {
        $env = getenv('CV_OPENAPI');
        return $env !== false && $env !== '' ? $env : __DIR__ . '/../../openapi.json';
    }

    /** @return array<string, mixed> */
    private static function document(): array
    {
        return json_decode((string) file_get_contents(self::path()), true, 512, JSON_THROW_ON_ERROR);
    }

    public function testTheLibraryMatchesTheDocument(): void
    {
        self::assertSame([], Drift::problems(self::document()), self::path() . ' and the library differ: change the library to match');
    }

    /** The check itself: a value added to the service's document, or one the library drops, is caught. */
    public function testAFieldStatusOrCodeAddedToTheDocumentIsCaught(): void
    {
        $doc = self::document();
        $schemas = &$doc['components']['schemas'];
        $schemas['SendCodeEntry']['properties']['retryAt'] = ['type' => 'string'];
        $schemas['VerifyCodeResult']['properties']['lockedUntil'] = ['type' => 'string'];
        $schemas['OutboxMessage']['properties']['provider'] = ['type' => 'string'];
        $schemas['SendCodeRequest']['properties']['template'] = ['type' => 'string'];
        $schemas['ApiError']['properties']['traceId'] = ['type' => 'string'];
        $schemas['VerificationStatus']['enum'][] = 'locked';
        $schemas['ErrorCode']['enum'][] = 'PAYMENT_REQUIRED';
        $schemas['Channel']['enum'] = array_values(array_diff($schemas['Channel']['enum'], ['WHATSAPP']));
        unset($schemas);
        $problems = implode("\n", Drift::problems($doc));
        foreach (['retryAt', 'lockedUntil', 'provider', 'template', 'traceId', 'locked', 'PAYMENT_REQUIRED'] as $name) {
            self::assertMatchesRegularExpression("/the document has [^\\n]*\\b{$name}\\b/", $problems);
        }
        self::assertStringContainsString('Channel: the library has WHATSAPP', $problems);
    }
}
