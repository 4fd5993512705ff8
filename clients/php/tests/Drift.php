<?php

declare(strict_types=1);

namespace ContactVerify\Tests;

use ContactVerify as CV;
use ContactVerify\Exception\ApiException;

/**
 * Every difference between the library and the service's OpenAPI document: the public properties
 * of each model, the send options, the enums' values and the error codes, both ways.
 */
final class Drift
{
    /** Each model and the component schema it stands for: its public properties are the schema's fields. */
    public const MODELS = [
        'SendCodeEntry' => CV\SendCodeEntry::class, 'Risk' => CV\Risk::class, 'RiskSignal' => CV\RiskSignal::class,
        'SendCodeEntryError' => CV\SendCodeEntryError::class, 'VerifyCodeResult' => CV\VerifyCodeResult::class,
        'ErrorDetail' => CV\ErrorDetail::class, 'Health' => CV\Health::class, 'ChannelHealth' => CV\ChannelHealth::class,
        'ProviderHealth' => CV\ProviderHealth::class, 'PumpingBreakerCount' => CV\PumpingBreakerCount::class,
        'InstancesHealth' => CV\InstancesHealth::class, 'CodeSecretRotation' => CV\CodeSecretRotation::class,
        'OutboxMessage' => CV\OutboxMessage::class, 'Verification' => CV\Verification::class,
        'VerificationDelivery' => CV\VerificationDelivery::class, 'SilentFallback' => CV\SilentFallback::class,
        'SendLink' => CV\SendLink::class,
    ];
    /** Inline objects of the document ([schema, field]) and the class that stands for each. */
    public const INLINE = [
        [['SendCodeEntry', 'silent'], CV\SilentStart::class],
        [['VerifyCodeResult', 'silent'], CV\SilentCheck::class],
        [['Verification', 'fallback'], CV\VerificationFallback::class],
    ];
    public const ENUMS = [
        'Channel' => CV\Channel::class, 'DeliveryType' => CV\DeliveryType::class,
        'VerificationStatus' => CV\VerificationStatus::class, 'SendCodeEntryStatus' => CV\SendCodeEntryStatus::class,
        'RiskLevel' => CV\RiskLevel::class, 'HealthStatus' => CV\HealthStatus::class,
        'VerificationMethod' => CV\VerificationMethod::class, 'DeliveryState' => CV\DeliveryState::class,
        'FallbackReason' => CV\FallbackReason::class,
    ];
    /** Fields of SendCodeRequest the send methods leave out on purpose: other names of phone. */
    private const PHONE_ALIASES = ['whatsappNumber', 'phoneNumber'];
    /** Parameters of the send methods that are not body fields: a header and the retry limit. */
    private const NOT_IN_BODY = ['idempotencyKey', 'maxRetries'];
    /** The library's own code: no answer came. */
    private const LIBRARY_CODES = ['NETWORK_ERROR'];

    /**
     * @param array<string, mixed> $doc the OpenAPI document
     * @return list<string> one sentence per difference
     */
    public static function problems(array $doc): array
    {
        $schemas = $doc['components']['schemas'];
        $fields = static fn (string $name): array => array_keys($schemas[$name]['properties']);
        $found = [];
        $compare = static function (string $what, array $document, array $library) use (&$found): void {
            if ($missing = array_values(array_diff($document, $library))) {
                $found[] = "{$what}: the document has " . implode(', ', $missing) . ', the library lacks it';
            }
            if ($extra = array_values(array_diff($library, $document))) {
                $found[] = "{$what}: the library has " . implode(', ', $extra) . ', the document does not';
            }
        };
        foreach (self::MODELS as $name => $class) {
            $properties = (new \ReflectionClass($class))->getProperties(\ReflectionProperty::IS_PUBLIC);
            $compare($name, $fields($name), array_map(static fn ($p) => $p->getName(), $properties));
        }
        foreach (self::INLINE as [[$name, $field], $class]) {
            $properties = (new \ReflectionClass($class))->getProperties(\ReflectionProperty::IS_PUBLIC);
            $compare(
                "{$name}.{$field}",
                array_keys($schemas[$name]['properties'][$field]['properties']),
                array_map(static fn ($p) => $p->getName(), $properties),
            );
        }
        $parameters = [];
        foreach (['sendCode', 'sendDualCode'] as $method) {
            foreach ((new \ReflectionMethod(CV\Client::class, $method))->getParameters() as $parameter) {
                $parameters[$parameter->getName()] = true;
            }
        }
        $compare(
            "SendCodeRequest (the send methods' parameters)",
            array_diff($fields('SendCodeRequest'), self::PHONE_ALIASES),
            array_diff(array_keys($parameters), self::NOT_IN_BODY),
        );
        $getter = static fn (string $field): string => 'get' . ucfirst($field === 'code' ? 'errorCode' : $field);
        $compare(
            "ApiError (ApiException's getters)",
            $fields('ApiError'),
            array_filter($fields('ApiError'), static fn ($f) => method_exists(ApiException::class, $getter($f))),
        );
        $values = static fn (string $enum): array => array_map(static fn ($case) => $case->value, $enum::cases());
        foreach (self::ENUMS as $name => $enum) {
            $compare($name, $schemas[$name]['enum'], $values($enum));
        }
        $compare('ErrorCode', $schemas['ErrorCode']['enum'], array_diff($values(CV\ErrorCode::class), self::LIBRARY_CODES));
        return $found;
    }
}
