export const PASSWORD = 'correct horse battery';

/**
 * Digests of PASSWORD in each scheme, in Clerk's documented formats (made once with bcryptjs, argon2,
 * node:crypto's pbkdf2 and sha256, and Python's hashlib for Werkzeug's scrypt, LDAP's SSHA, Symfony's SHA-512
 * and PBKDF2-SHA512). scrypt_firebase is Firebase's own published test vector
 * (github.com/firebase/scrypt), whose password is `user1password`.
 */
export const VECTORS: { hasher: string; digest: string; password: string }[] = [
  {
    hasher: 'bcrypt',
    digest: '$2b$04$jIIu1BhvDVH37LjpPlNThOn77vjdyRh.D3oWQaMmMOblECNprrnZO',
    password: PASSWORD,
  },
  {
    hasher: 'argon2i',
    digest: '$argon2i$v=19$m=64,t=1,p=1$nGUJyJc2rQjO5YdzJMqteA$2uomOrpP7Bp/lMXoRDoEU0/9/en2kaAjfUMNxptTuEg',
    password: PASSWORD,
  },
  {
    hasher: 'argon2id',
    digest: '$argon2id$v=19$m=128,t=2,p=1$Iur0En3iTQ8Jdh+EMLNQAg$6JjKpbTaLH8hgzBuqxq7ufvid4JOACHVqmlPipGJVkU',
    password: PASSWORD,
  },
  {
    hasher: 'pbkdf2_sha256_django',
    digest: 'pbkdf2_sha256$1000$seasalt$DrdiWD40lyBuydnjvZiDrdQMx1S1mOA9O0QYex0R6ww=',
    password: PASSWORD,
  },
  {
    hasher: 'pbkdf2_sha256',
    digest: 'pbkdf2_sha256$1000$MDEyMzQ1Njc4OWFiY2RlZg==$BVALGMmC/K/8ELErc5VgJxyPFApArIZRCQsqjEgZWJ4=',
    password: PASSWORD,
  },
  {
    hasher: 'pbkdf2_sha1',
    digest: 'pbkdf2_sha1$1000$seasalt$2cf4db627f7ff402e3cedc740edab957e0cb60b8',
    password: PASSWORD,
  },
  {
    hasher: 'sha256',
    digest: '9028ea0d15decaa35b2da21c0290af3b1a5ba0a30a591906f89b5074e209ea72',
    password: PASSWORD,
  },
  { hasher: 'md5', digest: '88e4ddd2402d92d50e1879d6ecd9ffd4', password: PASSWORD },
  // phpass's own published test vector (openwall.com/phpass, test.php).
  { hasher: 'phpass', digest: '$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0', password: 'test12345' },
  { hasher: 'md5_phpass', digest: '$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0', password: 'test12345' },
  {
    hasher: 'bcrypt_sha256_django',
    digest: 'bcrypt_sha256$$2b$04$kxblYdik1np3YJ4R/1szHeUk695JOpEGVYaOTjBq2ZsWTfVwLZNIe',
    password: PASSWORD,
  },
  {
    hasher: 'scrypt_werkzeug',
    digest:
      'scrypt:16384:8:1$pepper-and-salt$b85894086c83cd29b30da3cdb46d07d19b8180ae66c07d8eb061a2116b4db451e32ac88d08bc339244d4a1c25e9e952ef5d888802831fd569b4a0dad75d13043',
    password: PASSWORD,
  },
  { hasher: 'ldap_ssha', digest: '{SSHA}SivssiMT+WDvnOu+h+E7L672ZYkBAgMEc2E=', password: PASSWORD },
  {
    hasher: 'sha512_symfony',
    digest:
      'sha512_symfony$5000$symsalt$K7bNsPLg4RJ5yKRFrf4VldNpKLdaII+SPrfBMhwmDkYqGTipf+VrIrtTuCuUxgLQcUf9MEE61HpcJcxqCtoIww==',
    password: PASSWORD,
  },
  {
    hasher: 'pbkdf2_sha512',
    digest:
      'pbkdf2_sha512$1000$seasalt$14c4bcfe952ffdf40d9872b05273041c9b1d726d8bbb10b100e9d9f5ce14a8e0a4c38fa7676f8041e3ce676bdc904090d9f952f91e9369d801e46fb796f35365',
    password: PASSWORD,
  },
  {
    hasher: 'pbkdf2_sha512_hex',
    digest:
      'pbkdf2_sha512_hex$1000$73656173616c74$14c4bcfe952ffdf40d9872b05273041c9b1d726d8bbb10b100e9d9f5ce14a8e0a4c38fa7676f8041e3ce676bdc904090d9f952f91e9369d801e46fb796f35365',
    password: PASSWORD,
  },
  {
    hasher: 'scrypt_firebase',
    digest: [
      'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
      '42xEC+ixf3L2lw==',
      'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
      'Bw==',
      '8',
      '14',
    ].join('$'),
    password: 'user1password',
  },
];
