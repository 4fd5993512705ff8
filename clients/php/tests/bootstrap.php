<?php

declare(strict_types=1);

// The library through the autoloader composer made for an app that requires it (test.sh passes
// its path in CV_PHP_AUTOLOAD), else through the PSR-4 map of composer.json; the tests' own
// classes from tests/.
$autoload = getenv('CV_PHP_AUTOLOAD');
if ($autoload !== false && $autoload !== '') {
    require $autoload;
}
$psr4 = json_decode((string) file_get_contents(__DIR__ . '/../composer.json'), true, 512, JSON_THROW_ON_ERROR);
$map = $psr4['autoload-dev']['psr-4'] + ($autoload ? [] : $psr4['autoload']['psr-4']);
spl_autoload_register(static function (string $class) use ($map): void {
    foreach ($map as $prefix => $dir) {
        if (str_starts_with($class, $prefix)) {
            $file = __DIR__ . '/../' . $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
            if (is_file($file)) {
                require $file;
            }
            return;
        }
    }
});
