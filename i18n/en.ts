/**
 * Every on-screen string of the console, in English, worded exactly as the specification words it
 * (spellings kept: 'Curencies Exchange', 'Shipping Clases', 'This is section is ...').
 *
 * Key naming: one top-level section per part of the console, snake_case leaves.
 * - menu.<access token>             admin sidebar label of a screen (menu.shops, menu.my-shops)
 * - menu.seller.<access token>      seller sidebar label (menu.seller.my-shops = 'Shops')
 * - shell.*                         top bar, user menu, brand, loading
 * - auth.login.* / auth.register.* / auth.reset.*   the three public pages
 * - validation.*                    client-side validation messages (SPEC §5)
 * - dashboard.*, not_found.*, error_view.*, dialog.*, management.*
 * - widgets.<widget>.*              shared form widgets (widgets.location: the location picker)
 * react-admin's own strings (ra.*) come from ra-language-english; this object is merged over them.
 */
export const en = {
  shell: {
    title: 'Marketplace console',
    brand: 'Marketplace',
    home: 'Go to the dashboard',
    user_menu: 'Account',
    logout: 'logout',
    login: 'Login',
    register: 'Register',
  },
  menu: {
    label: 'Sidebar',
    dashboard: 'Dashboard',
    'my-shops': 'My Shops',
    'my-products': 'My Products',
    'my-orders': 'My Orders',
    shops: 'Shops',
    products: 'Products',
    orders: 'Orders',
    'subscription-plans': 'Subscription Plans',
    subscriptions: 'Subscriptions',
    category: 'category',
    support: 'Support',
    'job-posts': 'Job Posts',
    'job-applicants': 'Job Applicants',
    users: 'Users',
    brands: 'Brands',
    'mail-templates': 'Mail templates',
    'order-status': 'Order Status',
    'currencies-exchange': 'Curencies Exchange',
    'shipping-classes': 'Shipping Clases',
    'mile-prices': 'Mile Prices',
    'custom-distances': 'Custom Distances',
    'deletion-requests': 'Deletion Requests',
    'chat-logs': 'Chat Logs',
    seller: {
      dashboard: 'Dashboard',
      'my-shops': 'Shops',
      'my-orders': 'Orders',
      'my-products': 'Products',
    },
  },
  auth: {
    password: 'Password',
    show_password: 'Show Password',
    login: {
      title: 'Sign in to your account',
      credential: 'Email or Phone Number',
      credential_placeholder: 'Email or Phone Number e.g +44xxx',
      forgot_password: 'Forgot your password?',
      no_account: "I don't have an account",
      submit: 'Sign in',
      failed: 'Sign in failed. Please try again.',
    },
    register: {
      title: 'Create an account',
      name: 'Full Name',
      email: 'Email address',
      phone: 'Phone Number',
      terms_prefix: 'I accept the',
      terms_link: 'Terms and Conditions',
      terms_required: 'Please accept the Terms and Conditions',
      have_account: 'I already have an account',
      submit: 'Register',
      failed: 'Registration failed. Please try again.',
    },
    reset: {
      title: 'Reset password',
      intro: 'Enter the email address of your account and we will send you a link to set a new password.',
      email: 'Email address',
      submit: 'Reset',
      sent: 'If an account uses this address, a reset link has been sent to it.',
      new_password_intro: 'Choose a new password for your account.',
      new_password: 'New password',
      submit_new_password: 'Change password',
      changed: 'Your password has been changed.',
      back_to_login: 'Back to sign in',
      failed: 'The request failed. Please try again.',
    },
  },
  validation: {
    password_min: 'Your password must be minimum 8 digits',
  },
  dashboard: {
    title: 'Dashboard',
    welcome: 'Welcome, %{name}',
    welcome_anonymous: 'Welcome',
  },
  not_found: {
    title: '404!',
    message: 'The page is not found',
    back: 'Back to the dashboard',
  },
  error_view: {
    title: 'An Error occurred',
    retry: 'Try again',
  },
  management: {
    header: 'Administrative',
    admin_only: 'This is section is only visible to administrators',
    seller: 'This is section is visible to authorized person(s)',
    explore: 'Explore',
    close: 'Close',
    count: 'Count: %{count}',
    tab_add_edit: 'Add / Edit',
    tab_editor: 'Editor',
    tab_control: 'Control',
    no_data: 'No Data',
    showing: 'Showing %{from} to %{to} of %{total} results',
    previous: 'Previous',
    next: 'Next',
    ellipsis: '...',
  },
  dialog: {
    ok: 'OK',
    close: 'Close',
    alert: {
      title: 'Message',
    },
    order: {
      title: 'Order details',
      empty: 'No order selected',
      none: '—',
      id: 'Order ID',
      tracking_number: 'Tracking number',
      status: 'Status',
      dispatch_status: 'Dispatch status',
      payment_gateway: 'Payment method',
      number_of_items: 'Number of items',
      currency: 'Currency',
      total: 'Total',
      paid_total: 'Paid total',
      delivery_fee: 'Delivery fee',
      logistics: 'Logistics',
      shipping_address: 'Shipping address',
      shop: 'Shop',
      created_at: 'Created at',
    },
  },
  widgets: {
    location: {
      country: 'Country',
      state: 'State',
      city: 'City',
      others: 'Others',
      back_to_list: 'Choose the %{field} from the list',
    },
  },
};

export type Messages = typeof en;
