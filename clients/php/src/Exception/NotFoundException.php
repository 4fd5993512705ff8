<?php

declare(strict_types=1);

namespace ContactVerify\Exception;

/**
 * NOT_FOUND: an unknown request, or one on a channel the key is not enabled for (the same answer,
 * on purpose).
 */
final class NotFoundException extends ClientException
{
}
